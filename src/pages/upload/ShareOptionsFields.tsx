import { useLingui } from '@lingui/react/macro';
import type { StorageConfig } from '../../../contract/storage';
import { Field } from '../../components/Field';
import styles from './Upload.module.css';
import { FILE_EXPIRY_HOURS, PHOTO_METADATA_CHOICES, type FileExpiryHours, type PhotoMetadata, type UploadFormValues } from './upload-options';
import { useStorageName } from '../../lib/use-storage-name';

interface ShareOptionsFieldsProps {
  configs: StorageConfig[] | undefined;
  configId: string | undefined;
  onConfig: (id: string) => void;
  values: UploadFormValues;
  onChange: <K extends keyof UploadFormValues>(field: K, value: UploadFormValues[K]) => void;
  /** A custom link suffix only makes sense for one file. */
  slugDisabled?: boolean;
  /** Shown for local files: what shared photos lose (see photoMetadataOf). */
  photoMetadata?: PhotoMetadata;
}

/** Where to store and how to share: storage, link suffix, remark, password, expiry, max views, photo metadata. */
export function ShareOptionsFields({ configs, configId, onConfig, values, onChange, slugDisabled, photoMetadata }: ShareOptionsFieldsProps) {
  const { t } = useLingui();
  const metadataText: Record<PhotoMetadata, string> = {
    location: t`Remove location`,
    all: t`Remove all metadata (keep orientation)`,
    keep: t`Keep as taken`,
  };
  const storageName = useStorageName();
  const expiryText: Record<FileExpiryHours, string> = {
    0: t`Never`,
    1: t`1 hour`,
    24: t`1 day`,
    168: t`7 days`,
    336: t`2 weeks`,
    720: t`30 days`,
    2160: t`3 months`,
    4320: t`6 months`,
  };
  return (
    <div className={styles.options}>
      <Field label={t`Storage`}>
        <select name="storage" value={configId ?? ''} onChange={(e) => onConfig(e.target.value)} disabled={!configs}>
          {configs?.map((config) => {
            const name = storageName(config.name, config.provider_type);
            return (
              <option key={config.id} value={config.id}>
                {config.is_default ? t`${name} (default)` : name}
              </option>
            );
          })}
        </select>
      </Field>
      <Field label={t`Link suffix`} hint={slugDisabled ? t`Only for a single file` : t`Leave empty for a random link`}>
        <input name="slug" className="mono" value={values.slug} disabled={slugDisabled} onChange={(e) => onChange('slug', e.target.value)} />
      </Field>
      <Field label={t`Remark`}>
        <input name="remark" maxLength={500} value={values.remark} onChange={(e) => onChange('remark', e.target.value)} />
      </Field>
      <Field label={t`Password`} hint={t`Optional; visitors must enter it`}>
        <input name="password" type="password" autoComplete="new-password" value={values.password} onChange={(e) => onChange('password', e.target.value)} />
      </Field>
      <Field label={t`Expires after`}>
        <select name="expiresIn" value={values.expiresIn} onChange={(e) => onChange('expiresIn', Number(e.target.value) as FileExpiryHours)}>
          {FILE_EXPIRY_HOURS.map((hours) => (
            <option key={hours} value={hours}>
              {expiryText[hours]}
            </option>
          ))}
        </select>
      </Field>
      <Field label={t`Max views`} hint={t`0 or empty means unlimited`}>
        <input name="maxViews" type="number" min={0} step={1} value={values.maxViews} onChange={(e) => onChange('maxViews', e.target.value)} />
      </Field>
      {photoMetadata && (
        <Field label={t`Photo metadata`} hint={t`JPEG, WebP, HEIC and AVIF photos: removed in this browser before upload`}>
          <select name="photoMetadata" value={photoMetadata} onChange={(e) => onChange('photoMetadata', e.target.value as PhotoMetadata)}>
            {PHOTO_METADATA_CHOICES.map((choice) => (
              <option key={choice} value={choice}>
                {metadataText[choice]}
              </option>
            ))}
          </select>
        </Field>
      )}
    </div>
  );
}
