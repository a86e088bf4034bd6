import { useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { asRequestFailure } from '../../../../contract/envelope';
import {
  S3_PROVIDERS,
  type CreateStorageConfigRequest,
  type StorageConfig,
  type StorageType,
  type UpdateStorageConfigRequest,
} from '../../../../contract/storage';
import { Button } from '../../../components/Button';
import { Dialog, dialogStyles } from '../../../components/Dialog';
import { Field, fieldStyles } from '../../../components/Field';
import { createStorageConfig, updateStorageConfig } from '../../../lib/api/storage-configs';

const GIB = 1024 ** 3;

interface StorageConfigFormProps {
  editing?: StorageConfig;
  onClose: () => void;
  onSaved: () => void;
}

/** Create or edit a storage configuration; S3 secrets are write-only (left empty = keep). */
export function StorageConfigForm({ editing, onClose, onSaved }: StorageConfigFormProps) {
  const { t } = useLingui();
  const [type, setType] = useState<StorageType>(editing?.storage_type ?? 'S3');
  const [values, setValues] = useState({
    name: editing?.name ?? '',
    provider_type: editing?.provider_type ?? 'Other',
    endpoint_url: editing?.endpoint_url ?? '',
    region: editing?.region ?? 'us-east-1',
    bucket_name: editing?.bucket_name ?? '',
    access_key_id: editing?.access_key_id ?? '',
    secret_access_key: '',
    path_style: editing?.path_style ?? true,
    default_folder: editing?.default_folder ?? '',
    quotaGb: editing?.total_storage_bytes ? String(editing.total_storage_bytes / GIB) : '',
    is_public: editing?.is_public ?? false,
    is_default: editing?.is_default ?? false,
  });
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const set = <K extends keyof typeof values>(field: K, value: (typeof values)[K]) =>
    setValues((previous) => ({ ...previous, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!values.name.trim()) return setError(t`Please enter a name`);
    const quota = values.quotaGb.trim() ? Number(values.quotaGb) : null;
    if (quota !== null && !(quota > 0)) return setError(t`The quota must be a positive number of GB, or empty for none`);
    const s3 = type === 'S3';
    if (s3 && (!values.endpoint_url.trim() || !values.bucket_name.trim() || !values.access_key_id.trim())) {
      return setError(t`Endpoint, bucket and access key are required`);
    }
    if (s3 && !editing && !values.secret_access_key) return setError(t`The secret key is required`);
    const common = {
      name: values.name.trim(),
      default_folder: values.default_folder.trim(),
      total_storage_bytes: quota === null ? null : Math.round(quota * GIB),
      is_public: values.is_public,
      is_default: values.is_default,
    };
    const s3Fields = {
      provider_type: values.provider_type as (typeof S3_PROVIDERS)[number],
      endpoint_url: values.endpoint_url.trim(),
      region: values.region.trim(),
      bucket_name: values.bucket_name.trim(),
      access_key_id: values.access_key_id.trim(),
      path_style: values.path_style,
    };
    setSaving(true);
    setError(undefined);
    try {
      if (editing) {
        const changes: UpdateStorageConfigRequest = {
          ...common,
          ...(s3 && s3Fields),
          ...(s3 && values.secret_access_key && { secret_access_key: values.secret_access_key }),
        };
        await updateStorageConfig(editing.id, changes);
      } else {
        const body: CreateStorageConfigRequest = s3
          ? { storage_type: 'S3', ...common, ...s3Fields, secret_access_key: values.secret_access_key }
          : { storage_type: 'LOCAL', ...common };
        await createStorageConfig(body);
      }
      onSaved();
    } catch (failure) {
      setError(asRequestFailure(failure).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={editing ? t`Edit storage` : t`Add storage`}>
      <form onSubmit={submit} noValidate>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        {!editing && (
          <Field label={t`Storage type`}>
            <select name="storageType" value={type} onChange={(e) => setType(e.target.value as StorageType)}>
              <option value="S3">{t`S3-compatible service`}</option>
              <option value="LOCAL">{t`Local disk of this server`}</option>
            </select>
          </Field>
        )}
        <Field label={t`Name`}>
          <input name="name" value={values.name} onChange={(e) => set('name', e.target.value)} />
        </Field>
        {type === 'S3' && (
          <>
            <Field label={t`Provider`}>
              <select name="provider" value={values.provider_type} onChange={(e) => set('provider_type', e.target.value)}>
                {S3_PROVIDERS.map((provider) => (
                  <option key={provider} value={provider}>
                    {provider}
                  </option>
                ))}
              </select>
            </Field>
            <Field label={t`Endpoint URL`} hint={t`For example https://<account>.r2.cloudflarestorage.com`}>
              <input name="endpoint" type="url" value={values.endpoint_url} onChange={(e) => set('endpoint_url', e.target.value)} />
            </Field>
            <Field label={t`Region`}>
              <input name="region" value={values.region} onChange={(e) => set('region', e.target.value)} />
            </Field>
            <Field label={t`Bucket`}>
              <input name="bucket" value={values.bucket_name} onChange={(e) => set('bucket_name', e.target.value)} />
            </Field>
            <Field label={t`Access key ID`}>
              <input name="accessKeyId" autoComplete="off" value={values.access_key_id} onChange={(e) => set('access_key_id', e.target.value)} />
            </Field>
            <Field label={t`Secret access key`} hint={editing ? t`Leave empty to keep the stored secret` : undefined}>
              <input
                name="secretAccessKey"
                type="password"
                autoComplete="new-password"
                value={values.secret_access_key}
                onChange={(e) => set('secret_access_key', e.target.value)}
              />
            </Field>
            <div className={fieldStyles.field}>
              <label className={fieldStyles.checkbox}>
                <input type="checkbox" name="pathStyle" checked={values.path_style} onChange={(e) => set('path_style', e.target.checked)} />
                {t`Path-style addresses (needed by MinIO and most self-hosted services)`}
              </label>
            </div>
          </>
        )}
        <Field label={t`Folder`} hint={t`Everything goes under this folder; empty for the top level`}>
          <input name="defaultFolder" value={values.default_folder} onChange={(e) => set('default_folder', e.target.value)} />
        </Field>
        <Field label={t`Quota (GB)`} hint={t`Empty for no quota`}>
          <input name="quota" type="number" min={0} step="any" value={values.quotaGb} onChange={(e) => set('quotaGb', e.target.value)} />
        </Field>
        <div className={fieldStyles.field}>
          <label className={fieldStyles.checkbox}>
            <input type="checkbox" name="isPublic" checked={values.is_public} onChange={(e) => set('is_public', e.target.checked)} />
            {t`API keys may upload here`}
          </label>
          <label className={fieldStyles.checkbox}>
            <input type="checkbox" name="isDefault" checked={values.is_default} onChange={(e) => set('is_default', e.target.checked)} />
            {t`Use by default`}
          </label>
        </div>
        <div className={dialogStyles.actions}>
          <Button onClick={onClose}>{t`Cancel`}</Button>
          <Button type="submit" variant="primary" disabled={saving}>
            {saving ? t`Saving…` : editing ? t`Save changes` : t`Add storage`}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
