import { useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { asRequestFailure } from '../../../../contract/envelope';
import { FTP_TLS_MODES, S3_PROVIDERS, type FtpTlsMode, type StorageConfig, type StorageType } from '../../../../contract/storage';
import { Button } from '../../../components/Button';
import { Dialog, dialogStyles } from '../../../components/Dialog';
import { Field, fieldStyles } from '../../../components/Field';
import { createStorageConfig, updateStorageConfig } from '../../../lib/api/storage-configs';
import { changesOf, createBodyOf, initialValues, problemOf, type StorageFormProblem, type StorageFormValues } from './storage-form';

interface StorageConfigFormProps {
  editing?: StorageConfig;
  onClose: () => void;
  onSaved: () => void;
}

/** Create or edit a storage configuration; secrets are write-only (never filled in; left empty = keep). */
export function StorageConfigForm({ editing, onClose, onSaved }: StorageConfigFormProps) {
  const { t } = useLingui();
  const [type, setType] = useState<StorageType>(editing?.storage_type ?? 'S3');
  const [values, setValues] = useState(() => initialValues(editing));
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const set = <K extends keyof StorageFormValues>(field: K, value: StorageFormValues[K]) => setValues((previous) => ({ ...previous, [field]: value }));
  const keepHint = editing ? t`Leave blank to keep the stored one` : undefined;

  const problems: Record<StorageFormProblem, string> = {
    name: t`Please enter a name`,
    quota: t`The quota must be a positive number of GB, or empty for none`,
    s3_fields: t`Endpoint, bucket and access key are required`,
    s3_secret: t`The secret key is required`,
    endpoint: t`Enter the WebDAV address, starting with https:// or http://`,
    host: t`Enter the server's host name or IP address`,
    port: t`The port must be a number from 1 to 65535, or empty for the default`,
    username: t`Enter the user name`,
    password: t`Enter the password`,
    password_or_key: t`Enter a password or a private key`,
    host_key: t`The host key fingerprint looks like SHA256:… as ssh-keygen -l prints it`,
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = problemOf(type, values, editing !== undefined);
    if (problem) return setError(problems[problem]);
    setSaving(true);
    setError(undefined);
    try {
      if (editing) await updateStorageConfig(editing.id, changesOf(type, values));
      else await createStorageConfig(createBodyOf(type, values));
      onSaved();
    } catch (failure) {
      setError(asRequestFailure(failure).message);
    } finally {
      setSaving(false);
    }
  };

  const secretInput = (name: 'password' | 'passphrase', label: string) => (
    <Field label={label} hint={keepHint}>
      <input name={name} type="password" autoComplete="new-password" value={values[name]} onChange={(e) => set(name, e.target.value)} />
    </Field>
  );
  const hostAndPort = (defaultPort: number) => (
    <>
      <Field label={t`Host`} hint={t`Host name or IP address of the server`}>
        <input name="host" autoComplete="off" value={values.host} onChange={(e) => set('host', e.target.value)} />
      </Field>
      <Field label={t`Port`} hint={t`Empty for ${defaultPort}`}>
        <input name="port" inputMode="numeric" value={values.port} placeholder={String(defaultPort)} onChange={(e) => set('port', e.target.value)} />
      </Field>
    </>
  );
  const remote = type === 'WEBDAV' || type === 'SFTP' || type === 'FTP';
  const tlsNames: Record<FtpTlsMode, string> = {
    none: t`None (plain FTP: the password travels unencrypted)`,
    explicit: t`Explicit (FTPS with AUTH TLS)`,
    implicit: t`Implicit (FTPS, usually port 990)`,
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
              <option value="WEBDAV">{t`WebDAV server`}</option>
              <option value="SFTP">{t`SFTP server`}</option>
              <option value="FTP">{t`FTP server`}</option>
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
        {type === 'WEBDAV' && (
          <Field label={t`WebDAV address`} hint={t`For example https://nas.example.com/remote.php/dav/files/me`}>
            <input name="endpoint" type="url" value={values.endpoint_url} onChange={(e) => set('endpoint_url', e.target.value)} />
          </Field>
        )}
        {type === 'SFTP' && hostAndPort(22)}
        {type === 'FTP' && hostAndPort(21)}
        {remote && (
          <>
            <Field label={t`User name`}>
              <input name="username" autoComplete="off" value={values.username} onChange={(e) => set('username', e.target.value)} />
            </Field>
            {secretInput('password', type === 'SFTP' ? t`Password (or a private key below)` : t`Password`)}
          </>
        )}
        {type === 'SFTP' && (
          <>
            <Field label={t`Private key`} hint={keepHint ?? t`OpenSSH or PEM format; optional with a password`}>
              <textarea name="privateKey" rows={3} spellCheck={false} autoComplete="off" value={values.private_key} onChange={(e) => set('private_key', e.target.value)} />
            </Field>
            {secretInput('passphrase', t`Key passphrase`)}
            <Field label={t`Host key fingerprint`} hint={t`SHA256:… as ssh-keygen -l prints it; empty accepts any host key`}>
              <input name="hostKey" autoComplete="off" spellCheck={false} value={values.host_key_sha256} onChange={(e) => set('host_key_sha256', e.target.value)} />
            </Field>
          </>
        )}
        {type === 'FTP' && (
          <>
            <Field label={t`Encryption`}>
              <select name="tls" value={values.tls} onChange={(e) => set('tls', e.target.value as FtpTlsMode)}>
                {FTP_TLS_MODES.map((mode) => (
                  <option key={mode} value={mode}>
                    {tlsNames[mode]}
                  </option>
                ))}
              </select>
            </Field>
          </>
        )}
        {remote && (
          <div className={fieldStyles.field}>
            <label className={fieldStyles.checkbox}>
              <input
                type="checkbox"
                name="allowPrivateHost"
                checked={values.allow_private_host}
                onChange={(e) => set('allow_private_host', e.target.checked)}
              />
              {t`The server is on this machine or the local network (allow a private address)`}
            </label>
          </div>
        )}
        <Field
          label={t`Folder`}
          hint={remote ? t`The folder on the server everything goes under; it must exist. Empty for the top level` : t`Everything goes under this folder; empty for the top level`}
        >
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
