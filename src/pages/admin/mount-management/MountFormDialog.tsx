import { useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { asRequestFailure } from '../../../../contract/envelope';
import { DEFAULT_CACHE_TTL, MOUNT_NAME_MAX, type Mount } from '../../../../contract/mounts';
import type { StorageConfig } from '../../../../contract/storage';
import { Button } from '../../../components/Button';
import { Dialog, dialogStyles } from '../../../components/Dialog';
import { Field, fieldStyles } from '../../../components/Field';
import { createMount, updateMount } from '../../../lib/api/mounts';
import { useStorageName } from '../../../lib/use-storage-name';
import { mountRequestOf, validateMountForm, type MountFormErrors, type MountFormValues } from './mount-form';

interface MountFormDialogProps {
  /** The mount being edited; absent when creating. */
  editing?: Mount;
  configs: StorageConfig[];
  onClose: () => void;
  onSaved: (mount: Mount, created: boolean) => void;
}

function valuesOf(mount: Mount | undefined, configs: StorageConfig[]): MountFormValues {
  if (!mount) {
    const preferred = configs.find((config) => config.is_default) ?? configs[0];
    return { name: '', storageConfigId: preferred?.id ?? '', mountPath: '/', remark: '', sortOrder: '0', cacheTtl: String(DEFAULT_CACHE_TTL), isActive: true };
  }
  return {
    name: mount.name,
    storageConfigId: mount.storage_config_id,
    mountPath: mount.mount_path,
    remark: mount.remark ?? '',
    sortOrder: String(mount.sort_order),
    cacheTtl: String(mount.cache_ttl),
    isActive: mount.is_active,
  };
}

/** Create and edit in one form; each field's §5 check shows before anything is sent. */
export function MountFormDialog({ editing, configs, onClose, onSaved }: MountFormDialogProps) {
  const { t } = useLingui();
  const storageName = useStorageName();
  const [values, setValues] = useState<MountFormValues>(() => valuesOf(editing, configs));
  const [errors, setErrors] = useState<MountFormErrors>({});
  const [serverError, setServerError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const set = <K extends keyof MountFormValues>(field: K, value: MountFormValues[K]) => setValues((previous) => ({ ...previous, [field]: value }));

  const errorText: Record<keyof MountFormErrors, Partial<Record<NonNullable<MountFormErrors[keyof MountFormErrors]>, string>>> = {
    name: { required: t`Please enter a mount name`, length: t`The name must be 2 to 50 characters long` },
    storageConfigId: { required: t`Please choose a storage configuration` },
    mountPath: {
      required: t`Please enter a mount path`,
      invalid: t`Start with /, no trailing /, no empty, . or .. parts (for example /photos/2024)`,
      reserved: t`Paths under /api, /dav and /admin are reserved`,
    },
    sortOrder: { invalid: t`Enter a whole number, 0 or more` },
    cacheTtl: { invalid: t`Enter whole seconds, 0 or more (0 turns the cache off)` },
  };
  const messageFor = (field: keyof MountFormErrors) => {
    const code = errors[field];
    return code ? errorText[field][code] : undefined;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateMountForm(values);
    setErrors(found);
    const config = configs.find((candidate) => candidate.id === values.storageConfigId);
    if (Object.keys(found).length > 0 || !config) return;
    setSaving(true);
    setServerError(undefined);
    try {
      const body = mountRequestOf(values, config.storage_type);
      const saved = editing ? await updateMount(editing.id, body) : await createMount(body);
      onSaved(saved, !editing);
    } catch (error) {
      setServerError(asRequestFailure(error).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={editing ? t`Edit mount point` : t`Create mount point`}>
      <form onSubmit={submit} noValidate>
        {serverError && (
          <p className={fieldStyles.error} role="alert">
            {serverError}
          </p>
        )}
        <Field label={t`Name`} error={messageFor('name')}>
          <input name="name" value={values.name} maxLength={MOUNT_NAME_MAX} onChange={(e) => set('name', e.target.value)} />
        </Field>
        <Field label={t`Storage`} error={messageFor('storageConfigId')}>
          <select name="storageConfigId" value={values.storageConfigId} onChange={(e) => set('storageConfigId', e.target.value)}>
            <option value="">{t`Choose a storage configuration`}</option>
            {configs.map((config) => (
              <option key={config.id} value={config.id}>
                {`${storageName(config.name, config.provider_type)} (${config.storage_type})`}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t`Mount path`} hint={t`Where it appears in the explorer, for example /photos`} error={messageFor('mountPath')}>
          <input name="mountPath" className="mono" autoComplete="off" spellCheck={false} value={values.mountPath} onChange={(e) => set('mountPath', e.target.value)} />
        </Field>
        <Field label={t`Remark`}>
          <input name="remark" value={values.remark} maxLength={500} onChange={(e) => set('remark', e.target.value)} />
        </Field>
        <Field label={t`Sort order`} hint={t`Smaller numbers are listed first`} error={messageFor('sortOrder')}>
          <input name="sortOrder" type="number" min={0} step={1} inputMode="numeric" value={values.sortOrder} onChange={(e) => set('sortOrder', e.target.value)} />
        </Field>
        <Field label={t`Cache TTL (seconds)`} hint={t`How long folder listings are kept; 0 means no cache`} error={messageFor('cacheTtl')}>
          <input name="cacheTtl" type="number" min={0} step={1} inputMode="numeric" value={values.cacheTtl} onChange={(e) => set('cacheTtl', e.target.value)} />
        </Field>
        <div className={fieldStyles.field}>
          <label className={fieldStyles.checkbox}>
            <input type="checkbox" name="isActive" checked={values.isActive} onChange={(e) => set('isActive', e.target.checked)} />
            {t`Active: visible in the explorer`}
          </label>
        </div>
        <div className={dialogStyles.actions}>
          <Button onClick={onClose}>{t`Cancel`}</Button>
          <Button type="submit" variant="primary" disabled={saving}>
            {saving ? t`Saving…` : editing ? t`Save changes` : t`Create mount point`}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
