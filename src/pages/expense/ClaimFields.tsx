import { useLingui } from '@lingui/react/macro';
import { useMemo } from 'react';
import { EXPENSE_DESCRIPTION_MAX, EXPENSE_TITLE_MAX, currencyDigits, isoCurrencies } from '../../../contract/expenses';
import { Field } from '../../components/Field';
import { localToday, type ClaimFormErrors, type ClaimFormValues } from './claim-form';
import { useExpenseText } from './expense-text';
import styles from './Expense.module.css';

interface ClaimFieldsProps {
  values: ClaimFormValues;
  errors: ClaimFormErrors;
  onChange: <K extends keyof ClaimFormValues>(field: K, value: ClaimFormValues[K]) => void;
  /** The categories to choose from; undefined while they load. */
  categories: readonly string[] | undefined;
}

/** Every ISO 4217 currency, by code, with its name in the reader's language. */
function useCurrencyOptions(locale: string) {
  return useMemo(() => {
    const names = new Intl.DisplayNames([locale], { type: 'currency' });
    return [...isoCurrencies()].sort().map((code) => ({ code, label: `${code} · ${names.of(code) ?? code}` }));
  }, [locale]);
}

/** The fields of a claim, for a new one and for an edit; each says what is wrong with it under itself. */
export function ClaimFields({ values, errors, onChange, categories }: ClaimFieldsProps) {
  const { t, i18n } = useLingui();
  const text = useExpenseText();
  const currencies = useCurrencyOptions(i18n.locale);
  const decimals = currencyDigits(values.currency || 'USD');
  return (
    <>
      <Field label={t`Title`} error={text.formError(errors.title)}>
        <input name="title" value={values.title} maxLength={EXPENSE_TITLE_MAX} onChange={(event) => onChange('title', event.target.value)} />
      </Field>
      <div className={styles.fieldRow}>
        <Field label={t`Amount`} hint={decimals === 0 ? t`In whole units` : t`Up to ${decimals} decimals`} error={text.formError(errors.amount)}>
          <input name="amount" inputMode="decimal" autoComplete="off" value={values.amount} onChange={(event) => onChange('amount', event.target.value)} />
        </Field>
        <Field label={t`Currency`} error={text.formError(errors.currency)}>
          <select name="currency" value={values.currency} onChange={(event) => onChange('currency', event.target.value)}>
            {currencies.map((currency) => (
              <option key={currency.code} value={currency.code}>
                {currency.label}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <div className={styles.fieldRow}>
        <Field label={t`Date spent`} error={text.formError(errors.spentOn)}>
          <input name="spentOn" type="date" max={localToday(new Date())} value={values.spentOn} onChange={(event) => onChange('spentOn', event.target.value)} />
        </Field>
        <Field label={t`Category`} error={text.formError(errors.category)}>
          <select name="category" value={values.category} onChange={(event) => onChange('category', event.target.value)}>
            <option value="">{categories ? t`Choose a category` : t`Loading…`}</option>
            {(categories ?? []).map((category) => (
              <option key={category} value={category}>
                {text.category(category)}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <Field label={t`Description`} hint={t`Optional: what it was for`} error={text.formError(errors.description)}>
        <textarea name="description" rows={3} maxLength={EXPENSE_DESCRIPTION_MAX} value={values.description} onChange={(event) => onChange('description', event.target.value)} />
      </Field>
    </>
  );
}
