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
  onClose: () => void;
  onSaved: (paste: PasteDetail) => void;
}

/** Edits a paste the viewer may change: its content and its share settings. */
export function PasteEditDialog({ id, onClose, onSaved }: PasteEditDialogProps) {
  const { t } = useLingui();
  const load = useCallback(() => getPasteDetail(id), [id]);
  const paste = useResource(load);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={t`Edit share`}>
      {paste.status === 'error' && (
        <p className="form-error" role="alert">
          {paste.error.message}
        </p>
      )}
      {paste.status === 'loading' && <PageSkeleton lines={5} />}
      {paste.status === 'ready' && <PasteEditForm paste={paste.data} onClose={onClose} onSaved={onSaved} />}
    </Dialog>
  );
}

function PasteEditForm({ paste, onClose, onSaved }: { paste: PasteDetail; onClose: () => void; onSaved: (paste: PasteDetail) => void }) {
  const { t } = useLingui();
  const settings = useShareSettings(paste);
  const [content, setContent] = useState(paste.content);
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!content.trim()) return setError(t`Share content must not be empty`);
    const collected = settings.collect();
    if ('error' in collected) return setError(collected.error);
    setSaving(true);
    setError(undefined);
    try {
      onSaved(await updatePaste(paste.id, { content, ...collected.changes }));
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
      <Field label={t`Content`}>
        <textarea name="content" className={styles.content} value={content} onChange={(e) => setContent(e.target.value)} />
      </Field>
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
