import { useLingui } from '@lingui/react/macro';
import { useCallback, useState, type FormEvent } from 'react';
import { asRequestFailure } from '../../../contract/envelope';
import type { PasteDetail } from '../../../contract/pastes';
import { getPasteDetail, updatePaste } from '../../lib/api/pastes';
import { useResource } from '../../lib/use-resource';
import { Button } from '../Button';
import { Dialog, dialogStyles } from '../Dialog';
import { Field } from '../Field';
import { PageSkeleton } from '../PageSkeleton';
import { ShareSettingsFields, useShareSettings } from '../share-settings/ShareSettingsFields';
import styles from './PasteEditDialog.module.css';

interface PasteEditDialogProps {
  id: string;
  /** The key of the link an encrypted paste was opened with: the text is decrypted, and the edit encrypted, with it. */
  keyText?: string;
  onClose: () => void;
  onSaved: (paste: PasteDetail) => void;
}

const loadCipher = () => import('../../lib/crypto/paste-cipher');

/**
 * The text to edit: an encrypted paste's decrypted with the link's key; undefined when no key (or not its key) is
 * at hand, as in the admin lists, where only the settings can change.
 */
async function editableText(detail: PasteDetail, keyText: string | undefined): Promise<string | undefined> {
  if (!detail.encryption) return detail.content;
  if (!keyText) return undefined;
  const { decryptText, importPasteKey } = await loadCipher();
  return importPasteKey(keyText).then((key) => decryptText(key, detail.content)).catch(() => undefined);
}

/** Edits a paste the viewer may change: its content and its share settings. */
export function PasteEditDialog({ id, keyText, onClose, onSaved }: PasteEditDialogProps) {
  const { t } = useLingui();
  const load = useCallback(
    () => getPasteDetail(id).then(async (detail) => ({ detail, text: await editableText(detail, keyText) })),
    [id, keyText],
  );
  const paste = useResource(load);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={t`Edit share`}>
      {paste.status === 'error' && (
        <p className="form-error" role="alert">
          {paste.error.message}
        </p>
      )}
      {paste.status === 'loading' && <PageSkeleton lines={5} />}
      {paste.status === 'ready' && (
        <PasteEditForm paste={paste.data.detail} text={paste.data.text} keyText={keyText} onClose={onClose} onSaved={onSaved} />
      )}
    </Dialog>
  );
}

interface PasteEditFormProps {
  paste: PasteDetail;
  /** The text to edit; undefined: encrypted, and not readable here. */
  text: string | undefined;
  keyText: string | undefined;
  onClose: () => void;
  onSaved: (paste: PasteDetail) => void;
}

function PasteEditForm({ paste, text, keyText, onClose, onSaved }: PasteEditFormProps) {
  const { t } = useLingui();
  const settings = useShareSettings(paste);
  const [content, setContent] = useState(text ?? '');
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);

  /** The text to send: encrypted again with the same key when it was, none when it cannot be read here. */
  const contentChange = async () => {
    if (text === undefined) return {};
    if (!paste.encryption || !keyText) return { content };
    const { encryptWithKeyText } = await loadCipher();
    return { content: await encryptWithKeyText(keyText, content), encryption: paste.encryption };
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (text !== undefined && !content.trim()) return setError(t`Share content must not be empty`);
    const collected = settings.collect();
    if ('error' in collected) return setError(collected.error);
    setSaving(true);
    setError(undefined);
    try {
      onSaved(await updatePaste(paste.id, { ...(await contentChange()), ...collected.changes }));
    } catch (failure) {
      setError(asRequestFailure(failure).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {text === undefined ? (
        <p className={styles.encrypted}>
          {t`The text is end-to-end encrypted, and its key is only in the share's link: open the paste from its whole link to edit the text. Its settings can be changed here.`}
        </p>
      ) : (
        <Field label={t`Content`}>
          <textarea name="content" className={styles.content} value={content} onChange={(e) => setContent(e.target.value)} />
        </Field>
      )}
      <ShareSettingsFields settings={settings} />
      <div className={dialogStyles.actions}>
        <Button onClick={onClose}>{t`Cancel`}</Button>
        <Button type="submit" variant="primary" disabled={saving}>
          {saving ? t`Saving…` : t`Save changes`}
        </Button>
      </div>
    </form>
  );
}
