import { useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { asRequestFailure } from '../../../../contract/envelope';
import type { FileRequest } from '../../../../contract/file-requests';
import { Button } from '../../../components/Button';
import { Dialog, dialogStyles } from '../../../components/Dialog';
import { Field, fieldStyles } from '../../../components/Field';
import { createFileRequest, updateFileRequest } from '../../../lib/api/file-requests';
import { getMaxUploadSizeMb } from '../../../lib/api/system';
import { useResource } from '../../../lib/use-resource';
import {
  NEW_REQUEST_FORM,
  newRequestBody,
  requestFormValuesOf,
  requestSettings,
  validateRequestForm,
  type RequestFormErrors,
  type RequestFormField,
  type RequestFormValues,
} from './request-form';

interface RequestFormDialogProps {
  /** The request being edited; absent when creating one. */
  editing?: FileRequest;
  onClose: () => void;
  onSaved: (request: FileRequest, created: boolean) => void;
}

/** Creates a file request or edits one (everything but where its files land). */
export function RequestFormDialog({ editing, onClose, onSaved }: RequestFormDialogProps) {
  const { t } = useLingui();
  const [values, setValues] = useState<RequestFormValues>(editing ? requestFormValuesOf(editing) : NEW_REQUEST_FORM);
  const [errors, setErrors] = useState<RequestFormErrors>({});
  const [serverError, setServerError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const set = <K extends keyof RequestFormValues>(field: K, value: RequestFormValues[K]) => setValues((previous) => ({ ...previous, [field]: value }));

  const errorText: Record<RequestFormField, string> = {
    title: t`Please enter a title`,
    folder: t`Enter the folder the files go in, such as /local/inbox/`,
    maxFiles: t`Enter a whole number of files, 1 or more`,
    maxFileMb: t`Enter a size in MB above zero`,
    maxTotalMb: t`Enter a size in MB above zero`,
    types: t`Enter extensions such as .pdf, or types such as image/* or application/pdf, separated by commas`,
    expiresAt: t`Enter a date and time`,
  };
  const messageFor = (field: RequestFormField) => (errors[field] ? errorText[field] : undefined);
  // Senders are held to the server's maximum upload too: say so where the request would allow more (or no limit).
  const serverMaxMb = useResource(getMaxUploadSizeMb).data;
  const askedMb = values.maxFileMb.trim() === '' ? Infinity : Number(values.maxFileMb);
  const serverCapHint =
    serverMaxMb !== undefined && askedMb > serverMaxMb ? t`Files over the server's maximum upload of ${serverMaxMb} MB are refused` : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateRequestForm(values, !editing);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    setServerError(undefined);
    try {
      if (editing) onSaved(await updateFileRequest(editing.id, requestSettings(values)), false);
      else onSaved(await createFileRequest(newRequestBody(values)), true);
    } catch (error) {
      setServerError(asRequestFailure(error).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={editing ? t`Edit file request` : t`New file request`}>
      <form onSubmit={submit} noValidate>
        {serverError && (
          <p className={fieldStyles.error} role="alert">
            {serverError}
          </p>
        )}
        <Field label={t`Title`} error={messageFor('title')}>
          <input name="title" maxLength={200} value={values.title} onChange={(e) => set('title', e.target.value)} />
        </Field>
        <Field label={t`Message for the sender`}>
          <textarea name="message" rows={3} maxLength={5000} value={values.message} onChange={(e) => set('message', e.target.value)} />
        </Field>
        {!editing && (
          <fieldset className={fieldStyles.field}>
            <legend className={fieldStyles.label}>{t`Where files land`}</legend>
            <label className={fieldStyles.checkbox}>
              <input type="radio" name="targetKind" checked={values.targetKind === 'folder'} onChange={() => set('targetKind', 'folder')} />
              {t`In a folder of a mount`}
            </label>
            <label className={fieldStyles.checkbox}>
              <input type="radio" name="targetKind" checked={values.targetKind === 'shares'} onChange={() => set('targetKind', 'shares')} />
              {t`As file shares of mine`}
            </label>
          </fieldset>
        )}
        {!editing && values.targetKind === 'folder' && (
          <Field label={t`Folder`} hint={t`A folder you may write to; it is made if it is not there.`} error={messageFor('folder')}>
            <input name="folder" className="mono" placeholder="/local/inbox/" value={values.folder} onChange={(e) => set('folder', e.target.value)} />
          </Field>
        )}
        <Field label={editing?.has_password ? t`New password (empty: keep the current one)` : t`Password (optional)`}>
          <input name="password" type="password" autoComplete="new-password" value={values.password} onChange={(e) => set('password', e.target.value)} />
        </Field>
        <Field label={t`Expires (optional)`} error={messageFor('expiresAt')}>
          <input name="expiresAt" type="datetime-local" value={values.expiresAt} onChange={(e) => set('expiresAt', e.target.value)} />
        </Field>
        <Field label={t`Most files (optional)`} error={messageFor('maxFiles')}>
          <input name="maxFiles" type="number" min={1} step={1} inputMode="numeric" value={values.maxFiles} onChange={(e) => set('maxFiles', e.target.value)} />
        </Field>
        <Field label={t`Largest file in MB (optional)`} hint={serverCapHint} error={messageFor('maxFileMb')}>
          <input name="maxFileMb" type="number" min={0} step="any" inputMode="decimal" value={values.maxFileMb} onChange={(e) => set('maxFileMb', e.target.value)} />
        </Field>
        <Field label={t`All files together in MB (optional)`} error={messageFor('maxTotalMb')}>
          <input name="maxTotalMb" type="number" min={0} step="any" inputMode="decimal" value={values.maxTotalMb} onChange={(e) => set('maxTotalMb', e.target.value)} />
        </Field>
        <Field label={t`Accepted types (optional)`} hint={t`Such as .pdf, image/*; empty: any type`} error={messageFor('types')}>
          <input name="types" className="mono" value={values.types} onChange={(e) => set('types', e.target.value)} />
        </Field>
        <div className={fieldStyles.field}>
          <label className={fieldStyles.checkbox}>
            <input type="checkbox" name="showUploads" checked={values.showUploads} onChange={(e) => set('showUploads', e.target.checked)} />
            {t`Senders see what everyone sent`}
          </label>
        </div>
        <div className={dialogStyles.actions}>
          <Button onClick={onClose}>{t`Cancel`}</Button>
          <Button type="submit" variant="primary" disabled={saving}>
            {saving ? t`Saving…` : editing ? t`Save changes` : t`Create request`}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
