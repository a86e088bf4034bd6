import { useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { asRequestFailure } from '../../../contract/envelope';
import type { FileShare } from '../../../contract/files';
import { updateFile } from '../../lib/api/files';
import { Button } from '../Button';
import { Dialog, dialogStyles } from '../Dialog';
import { ShareSettingsFields, useShareSettings, type ShareSettings } from '../share-settings/ShareSettingsFields';

interface FileEditDialogProps {
  file: ShareSettings & { id: string; filename: string };
  onClose: () => void;
  onSaved: (file: FileShare) => void;
}

/** Changes a file share's link, remark, expiry, view limit and password; the bytes stay as they are. */
export function FileEditDialog({ file, onClose, onSaved }: FileEditDialogProps) {
  const { t } = useLingui();
  const settings = useShareSettings(file);
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const collected = settings.collect();
    if ('error' in collected) return setError(collected.error);
    setSaving(true);
    setError(undefined);
    try {
      onSaved(await updateFile(file.id, collected.changes));
    } catch (failure) {
      setError(asRequestFailure(failure).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={t`Edit file share`} description={file.filename}>
      <form onSubmit={submit} noValidate>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <ShareSettingsFields settings={settings} />
        <div className={dialogStyles.actions}>
          <Button onClick={onClose}>{t`Cancel`}</Button>
          <Button type="submit" variant="primary" disabled={saving}>
            {saving ? t`Saving…` : t`Save changes`}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
