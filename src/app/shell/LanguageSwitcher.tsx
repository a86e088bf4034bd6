import { useLingui } from '@lingui/react/macro';
import { isLocale, switchLocale, type Locale } from '../../lib/i18n';
import styles from './Shell.module.css';

/** Names each language in itself, so a reader finds theirs whatever is active. */
const LANGUAGE_NAMES: Record<Locale, string> = { 'zh-CN': '简体中文', 'en-US': 'English' };

export function LanguageSwitcher() {
  const { t, i18n } = useLingui();
  return (
    <select
      className={styles.select}
      aria-label={t`Language`}
      value={i18n.locale}
      onChange={(event) => {
        const locale = event.target.value;
        if (isLocale(locale)) void switchLocale(locale);
      }}
    >
      {(Object.keys(LANGUAGE_NAMES) as Locale[]).map((locale) => (
        <option key={locale} value={locale} lang={locale}>
          {LANGUAGE_NAMES[locale]}
        </option>
      ))}
    </select>
  );
}
