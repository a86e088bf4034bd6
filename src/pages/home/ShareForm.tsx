import { useLingui } from '@lingui/react/macro';
import { Share2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import type { SlugProblem } from '../../../contract/slugs';
import { Button } from '../../components/Button';
import { Field, fieldStyles } from '../../components/Field';
import { localStore, STORAGE_KEYS } from '../../lib/storage';
import { PASTE_EXPIRY_CHOICES, validateShareForm, type PasteExpiryChoice, type ShareFormErrors, type ShareFormValues } from './share-options';
import styles from './Home.module.css';
import { useSlugAvailability } from './useSlugAvailability';

interface ShareFormProps {
  content: string;
  busy: boolean;
  /** The text is the share just created: another one would be a second link to it. */
  sharedAlready: boolean;
  /** Resolves true when the share was created. */
  onShare: (values: ShareFormValues) => Promise<boolean>;
}

const initialValues: Omit<ShareFormValues, 'encrypt'> = { slug: '', remark: '', password: '', expiry: 'never', maxViews: '' };

export function ShareForm({ content, busy, sharedAlready, onShare }: ShareFormProps) {
  const { t } = useLingui();
  const [values, setValues] = useState<ShareFormValues>(() => ({
    ...initialValues,
    encrypt: localStore.get(STORAGE_KEYS.encryptPastes) === 'true',
  }));
  const encryptHintId = useId();
  const [errors, setErrors] = useState<ShareFormErrors>({});
  const availability = useSlugAvailability(values.slug, true);
  const set = <K extends keyof ShareFormValues>(field: K, value: ShareFormValues[K]) =>
    setValues((previous) => ({ ...previous, [field]: value }));

  const slugText: Record<SlugProblem, string> = {
    empty: '',
    too_long: t`At most 50 characters`,
    invalid_characters: t`Only letters, digits, hyphen and underscore`,
    reserved: t`This link suffix is reserved, please choose another`,
  };
  const expiryText: Record<PasteExpiryChoice, string> = {
    never: t`Never`,
    '1h': t`1 hour`,
    '1d': t`1 day`,
    '7d': t`7 days`,
    '14d': t`2 weeks`,
    '30d': t`30 days`,
    '90d': t`3 months`,
    '180d': t`6 months`,
  };

  const slugError = errors.slug
    ? slugText[errors.slug]
    : availability === 'taken'
      ? t`Link suffix is already taken, please try another`
      : undefined;
  const slugHint =
    availability === 'checking' ? t`Checking…` : availability === 'available' ? t`Available` : t`Leave empty for a random link`;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateShareForm(values, content);
    setErrors(found);
    if (Object.keys(found).length > 0 || availability === 'taken') return;
    // Once shared, the one-off settings are cleared: the next share must not quietly get this password or link.
    void onShare(values).then(
      (created) => created && setValues((previous) => ({ ...initialValues, expiry: previous.expiry, encrypt: previous.encrypt })),
    );
  };

  return (
    <form className={styles.shareForm} onSubmit={submit} noValidate aria-label={t`Share options`}>
      {errors.content && (
        <p className="form-error" role="alert">
          {t`Share content must not be empty`}
        </p>
      )}
      <div className={styles.shareGrid}>
        <Field label={t`Link suffix`} hint={slugHint} error={slugError}>
          <input name="slug" className="mono" autoComplete="off" spellCheck={false} maxLength={60} value={values.slug} onChange={(e) => set('slug', e.target.value)} />
        </Field>
        <Field label={t`Remark`}>
          <input name="remark" maxLength={500} value={values.remark} onChange={(e) => set('remark', e.target.value)} />
        </Field>
        <Field label={t`Password`} hint={t`Optional; visitors must enter it`}>
          <input name="password" type="password" autoComplete="new-password" value={values.password} onChange={(e) => set('password', e.target.value)} />
        </Field>
        <Field label={t`Expires after`}>
          <select name="expiry" value={values.expiry} onChange={(e) => set('expiry', e.target.value as PasteExpiryChoice)}>
            {PASTE_EXPIRY_CHOICES.map((choice) => (
              <option key={choice} value={choice}>
                {expiryText[choice]}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t`Max views`} hint={t`0 or empty means unlimited`} error={errors.maxViews && t`Enter a whole number, 0 or more`}>
          <input name="maxViews" type="number" min={0} step={1} inputMode="numeric" value={values.maxViews} onChange={(e) => set('maxViews', e.target.value)} />
        </Field>
      </div>
      <div className={fieldStyles.field}>
        <label className={fieldStyles.checkbox}>
          <input
            type="checkbox"
            name="encrypt"
            checked={values.encrypt}
            aria-describedby={encryptHintId}
            onChange={(e) => {
              set('encrypt', e.target.checked);
              // Remembered in this browser: who encrypts one paste tends to encrypt the next.
              localStore.set(STORAGE_KEYS.encryptPastes, e.target.checked ? 'true' : undefined);
            }}
          />
          {t`Encrypt in the browser`}
        </label>
        <span id={encryptHintId} className={fieldStyles.hint}>
          {t`The key is only in the link: the server cannot read the text, and nobody can open it without the full link.`}
        </span>
      </div>
      {sharedAlready && <p className={styles.sharedAlready}>{t`This text is shared already: its link is above. Creating again makes a second link.`}</p>}
      <Button type="submit" variant="primary" disabled={busy}>
        <Share2 size={17} aria-hidden />
        {busy ? t`Sharing…` : sharedAlready ? t`Create another link` : t`Create share`}
      </Button>
    </form>
  );
}
