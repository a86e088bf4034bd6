import { useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { asRequestFailure } from '../../../../contract/envelope';
import { WEBDAV_UPLOAD_MODES, type SystemSettings, type WebdavUploadMode } from '../../../../contract/system';
import { Button } from '../../../components/Button';
import { Field } from '../../../components/Field';
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

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const value = Number(amount);
    const sizeValid = amount.trim() !== '' && Number.isFinite(value) && value > 0;
    setError(sizeValid ? undefined : t`Upload max size must be greater than 0`);
    setCheckCategories(true);
    if (!sizeValid || categoryErrors(categories).some(Boolean)) return;
    setSaving(true);
    try {
      const saved = await updateSystemSettings({
        max_upload_size: toMegabytes(value, unit),
        webdav_upload_mode: mode,
        expense_categories: categoriesToSave(categories),
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
      <Field label={t`WebDAV upload mode`}>
        <select name="webdavUploadMode" value={mode} onChange={(e) => setMode(e.target.value as WebdavUploadMode)}>
          {WEBDAV_UPLOAD_MODES.map((option) => (
            <option key={option} value={option}>
              {modeLabels[option]}
            </option>
          ))}
        </select>
      </Field>
      <ExpenseCategoriesEditor names={categories} errors={categoryProblems} onChange={setCategories} />
      <Button type="submit" variant="primary" disabled={saving}>
        {saving ? t`Saving…` : t`Save settings`}
      </Button>
    </form>
  );
}
