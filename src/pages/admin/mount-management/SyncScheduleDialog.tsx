import { useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { asRequestFailure } from '../../../../contract/envelope';
import type { SyncSchedule } from '../../../../contract/jobs';
import { Button } from '../../../components/Button';
import { Dialog, dialogStyles } from '../../../components/Dialog';
import { Field, fieldStyles } from '../../../components/Field';
import { createSyncSchedule, updateSyncSchedule } from '../../../lib/api/sync-schedules';
import { syncBodyOf, syncValuesOf, validateSyncForm, type SyncFormErrors, type SyncFormValues } from './sync-form';

interface SyncScheduleDialogProps {
  editing?: SyncSchedule;
  onClose: () => void;
  onSaved: (created: boolean) => void;
}

/** Create and edit a sync schedule; a mirror needs its own confirmation, as it deletes in the target. */
export function SyncScheduleDialog({ editing, onClose, onSaved }: SyncScheduleDialogProps) {
  const { t } = useLingui();
  const [values, setValues] = useState<SyncFormValues>(() => syncValuesOf(editing));
  const [errors, setErrors] = useState<SyncFormErrors>({});
  const [serverError, setServerError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const set = <K extends keyof SyncFormValues>(field: K, value: SyncFormValues[K]) => setValues((previous) => ({ ...previous, [field]: value }));

  const pathText = { required: t`Please enter a path`, invalid: t`A path in the explorer, starting with / (for example /local/photos)`, overlap: t`The target must not lie inside the source, nor the source inside the target` };
  const errorText: Record<keyof SyncFormErrors, Partial<Record<NonNullable<SyncFormErrors[keyof SyncFormErrors]>, string>>> = {
    source: pathText,
    target: pathText,
    cron: { required: t`Please enter when it runs`, invalid: t`Five fields: minute hour day month weekday (for example 0 3 * * *)` },
    confirmMirror: { required: t`Confirm that the mirror may delete files in the target` },
  };
  const messageFor = (field: keyof SyncFormErrors) => {
    const code = errors[field];
    return code ? errorText[field][code] : undefined;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateSyncForm(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    setServerError(undefined);
    try {
      const body = syncBodyOf(values);
      if (editing) await updateSyncSchedule(editing.id, body);
      else await createSyncSchedule(body);
      onSaved(!editing);
    } catch (error) {
      setServerError(asRequestFailure(error).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={editing ? t`Edit sync schedule` : t`Create sync schedule`}>
      <form onSubmit={submit} noValidate>
        {serverError && (
          <p className={fieldStyles.error} role="alert">
            {serverError}
          </p>
        )}
        <Field label={t`Source`} hint={t`The folder copied from, for example /local/photos`} error={messageFor('source')}>
          <input name="source" className="mono" autoComplete="off" spellCheck={false} value={values.source} onChange={(e) => set('source', e.target.value)} />
        </Field>
        <Field label={t`Target`} hint={t`The folder copied into, for example /s3/backup/photos`} error={messageFor('target')}>
          <input name="target" className="mono" autoComplete="off" spellCheck={false} value={values.target} onChange={(e) => set('target', e.target.value)} />
        </Field>
        <Field label={t`When (cron, UTC)`} hint={t`minute hour day month weekday: 0 3 * * * is every day at 03:00 UTC`} error={messageFor('cron')}>
          <input name="cron" className="mono" autoComplete="off" spellCheck={false} value={values.cron} onChange={(e) => set('cron', e.target.value)} />
        </Field>
        <Field label={t`Mode`}>
          <select name="mode" value={values.mode} onChange={(e) => set('mode', e.target.value === 'mirror' ? 'mirror' : 'copy-new-and-changed')}>
            <option value="copy-new-and-changed">{t`Copy new and changed files (never deletes)`}</option>
            <option value="mirror">{t`Mirror (also deletes in the target what the source lacks)`}</option>
          </select>
        </Field>
        {values.mode === 'mirror' && (
          <div className={fieldStyles.field}>
            <label className={fieldStyles.checkbox}>
              <input type="checkbox" name="confirmMirror" checked={values.confirmMirror} onChange={(e) => set('confirmMirror', e.target.checked)} />
              {t`I understand that files in the target that the source lacks are deleted`}
            </label>
            {messageFor('confirmMirror') && (
              <p className={fieldStyles.error} role="alert">
                {messageFor('confirmMirror')}
              </p>
            )}
          </div>
        )}
        <div className={fieldStyles.field}>
          <label className={fieldStyles.checkbox}>
            <input type="checkbox" name="enabled" checked={values.enabled} onChange={(e) => set('enabled', e.target.checked)} />
            {t`Enabled: runs at the times given`}
          </label>
        </div>
        <div className={dialogStyles.actions}>
          <Button onClick={onClose}>{t`Cancel`}</Button>
          <Button type="submit" variant="primary" disabled={saving}>
            {saving ? t`Saving…` : editing ? t`Save changes` : t`Create sync schedule`}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
