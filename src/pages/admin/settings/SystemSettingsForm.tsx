import { useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { asRequestFailure } from '../../../../contract/envelope';
import { MAX_ACCESS_LOG_RETENTION_DAYS } from '../../../../contract/access-log';
import { WEBDAV_UPLOAD_MODES, type SystemSettings, type WebdavUploadMode } from '../../../../contract/system';
import { Button } from '../../../components/Button';
import { CheckboxField, Field } from '../../../components/Field';
import { updateSystemSettings } from '../../../lib/api/system';
import { toasts } from '../../../lib/toast';
import { ExpenseCategoriesEditor } from './ExpenseCategoriesEditor';
import { categoriesToSave, categoryErrors } from './expense-categories';
import styles from './Settings.module.css';
import { fromMegabytes, SIZE_UNITS, toMegabytes, type SizeUnit } from './upload-size';

export function SystemSettingsForm({ initial }: { initial: SystemSettings }) {
  const { t } = useLingui();
  const start = fromMegabytes(initial.max_upload_size);
  const [amount, setAmount] = useState(String(start.amount));
  const [unit, setUnit] = useState<SizeUnit>(start.unit);
  const [mode, setMode] = useState<WebdavUploadMode>(initial.webdav_upload_mode);
  const [categories, setCategories] = useState<string[]>(initial.expense_categories);
  const [stripLocation, setStripLocation] = useState(initial.strip_image_location);
  const [onlineViewers, setOnlineViewers] = useState(initial.online_office_viewers);
  const [fullAddresses, setFullAddresses] = useState(initial.access_log_full_ip);
  const [retention, setRetention] = useState(String(initial.access_log_retention_days));
  const [retentionError, setRetentionError] = useState<string>();
  // The categories are checked from the first save on, then as they change.
  const [checkCategories, setCheckCategories] = useState(false);
  const categoryProblems = checkCategories ? categoryErrors(categories) : [];
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);

  const modeLabels: Record<WebdavUploadMode, string> = {
    auto: t`Automatic (choose per file)`,
    proxy: t`Proxy (presigned URL)`,
    multipart: t`Multipart upload`,
    direct: t`Direct upload`,
  };
  // What each mode does with a WebDAV PUT to S3 storage (server/features/webdav/put.ts), and when to pick it.
  const modeHelp: Record<WebdavUploadMode, string> = {
    auto: t`Recommended. A file of up to 5 MiB goes to the storage in one request; a larger one, or one the client sends without its size (as macOS Finder does), goes in 5 MiB parts.`,
    proxy: t`The server signs an upload URL and sends the whole file through it in one request, as a browser upload does (a file sent without its size still goes in parts). Choose it for a storage that does not support multipart uploads; one request takes at most 5 GB.`,
    multipart: t`Every file goes in parts of 5 MiB (larger for huge files), each its own request, with one part in memory at a time. Choose it when long single requests to the storage fail or time out.`,
    direct: t`The server streams the file to the storage itself, with no signed URL: one request up to 5 MiB, parts above. Choose it when the server cannot reach the signed URLs the storage hands out.`,
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const value = Number(amount);
    const sizeValid = amount.trim() !== '' && Number.isFinite(value) && value > 0;
    setError(sizeValid ? undefined : t`Upload max size must be greater than 0`);
    const days = Number(retention);
    const retentionValid = Number.isInteger(days) && days >= 1 && days <= MAX_ACCESS_LOG_RETENTION_DAYS;
    setRetentionError(retentionValid ? undefined : t`Keep accesses for 1 to ${MAX_ACCESS_LOG_RETENTION_DAYS} whole days`);
    setCheckCategories(true);
    if (!sizeValid || !retentionValid || categoryErrors(categories).some(Boolean)) return;
    setSaving(true);
    try {
      const saved = await updateSystemSettings({
        max_upload_size: toMegabytes(value, unit),
        webdav_upload_mode: mode,
        expense_categories: categoriesToSave(categories),
        strip_image_location: stripLocation,
        online_office_viewers: onlineViewers,
        access_log_full_ip: fullAddresses,
        access_log_retention_days: days,
      });
      setCategories(saved.expense_categories);
      toasts.success(t`Settings saved`);
    } catch (failure) {
      toasts.error(asRequestFailure(failure).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={save} noValidate>
      <Field label={t`Max upload size`} error={error} hint={t`The largest file one upload may be.`}>
        <div className={styles.sizeRow}>
          <input
            name="maxUploadSize"
            type="number"
            min={0}
            step="any"
            inputMode="decimal"
            aria-label={t`Max upload size`}
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
          />
          <select name="unit" aria-label={t`Unit`} value={unit} onChange={(e) => setUnit(e.target.value as SizeUnit)}>
            {SIZE_UNITS.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </div>
      </Field>
      <Field
        label={t`WebDAV upload mode`}
        hint={
          <>
            {modeHelp[mode]} {t`Files on local storage are always written straight to disk, whatever the mode.`}
          </>
        }
      >
        <select name="webdavUploadMode" value={mode} onChange={(e) => setMode(e.target.value as WebdavUploadMode)}>
          {WEBDAV_UPLOAD_MODES.map((option) => (
            <option key={option} value={option}>
              {modeLabels[option]}
            </option>
          ))}
        </select>
      </Field>
      <CheckboxField
        name="stripImageLocation"
        checked={stripLocation}
        onChange={setStripLocation}
        label={t`Remove location from shared images`}
        hint={t`The default of the upload page (each upload may choose otherwise) and of uploads through the API: the shared copy of a JPEG, WebP, HEIC or AVIF photo loses its GPS position. Files in mounts are never changed.`}
      />
      <CheckboxField
        name="onlineOfficeViewers"
        checked={onlineViewers}
        onChange={setOnlineViewers}
        label={t`Offer Microsoft's and Google's online viewers for Office files`}
        hint={t`Office files, EPUB books and archives are previewed in the browser, with nothing sent elsewhere. The online viewers fetch the file's link from the internet themselves: a third party sees it, and they only work when this server has a public address.`}
      />
      <Field
        label={t`Keep share access logs for (days)`}
        error={retentionError}
        hint={t`Each view, download and peek of a share is listed on its page for its owner; older ones are removed.`}
      >
        <input
          name="accessLogRetentionDays"
          type="number"
          min={1}
          max={MAX_ACCESS_LOG_RETENTION_DAYS}
          step={1}
          inputMode="numeric"
          value={retention}
          onChange={(e) => setRetention(e.target.value)}
        />
      </Field>
      <CheckboxField
        name="accessLogFullIp"
        checked={fullAddresses}
        onChange={setFullAddresses}
        label={t`Keep visitors' full IP addresses in access logs`}
        hint={t`Off, a log keeps only the network a visitor came from (IPv4 /24, IPv6 /48), which tells visitors apart without saying who they are.`}
      />
      <ExpenseCategoriesEditor names={categories} errors={categoryProblems} onChange={setCategories} />
      <Button type="submit" variant="primary" disabled={saving}>
        {saving ? t`Saving…` : t`Save settings`}
      </Button>
    </form>
  );
}
