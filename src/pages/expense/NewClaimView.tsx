import { useLingui } from '@lingui/react/macro';
import { ArrowLeft, Save, Trash2 } from 'lucide-react';
import { useCallback, useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { asRequestFailure } from '../../../contract/envelope';
import { EXPENSE_RECEIPTS_MAX } from '../../../contract/expenses';
import { useTaskManager } from '../../app/actors';
import { receiptUploadTask } from '../../app/receipt-tasks';
import { Button } from '../../components/Button';
import { LinkButton } from '../../components/LinkButton';
import { createExpense, expenseCategories } from '../../lib/api/expenses';
import { formatBytes } from '../../lib/format';
import { useResource } from '../../lib/use-resource';
import { ClaimFields } from './ClaimFields';
import { emptyClaimForm, sortReceipts, validateClaimForm, type ClaimFormErrors, type ClaimFormValues } from './claim-form';
import { useExpenseText } from './expense-text';
import { ReceiptPicker } from './ReceiptPicker';
import styles from './Expense.module.css';
import { BreakableName } from '../../components/BreakableName';

/**
 * A new claim: its fields and its receipts. It is filed as a draft, then each receipt uploads as a task of the task
 * manager while the claim's page opens (the uploads go on if the user leaves it).
 */
export function NewClaimView() {
  const { t, i18n } = useLingui();
  const text = useExpenseText();
  const tasks = useTaskManager();
  const [, navigate] = useLocation();
  const categories = useResource(expenseCategories);
  const [values, setValues] = useState<ClaimFormValues>(() => emptyClaimForm(i18n.locale, new Date()));
  const [errors, setErrors] = useState<ClaimFormErrors>({});
  const [receipts, setReceipts] = useState<File[]>([]);
  const [refusedReceipts, setRefusedReceipts] = useState<string[]>([]);
  const [serverError, setServerError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const setValue = useCallback(<K extends keyof ClaimFormValues>(field: K, value: ClaimFormValues[K]) => setValues((previous) => ({ ...previous, [field]: value })), []);

  const addReceipts = (files: File[]) => {
    const { accepted, refused } = sortReceipts(files, EXPENSE_RECEIPTS_MAX - receipts.length);
    setReceipts((previous) => [...previous, ...accepted]);
    setRefusedReceipts(refused.map(({ file, problem }) => text.receiptProblem(file.name, problem)));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const { errors: found, request } = validateClaimForm(values, { now: new Date(), categories: categories.data });
    setErrors(found);
    if (!request) return;
    setSaving(true);
    setServerError(undefined);
    try {
      const claim = await createExpense(request);
      for (const file of receipts) tasks.send({ type: 'tasks.add', task: receiptUploadTask(claim.id, file) });
      navigate(`/expense/${encodeURIComponent(claim.id)}`);
    } catch (error) {
      setServerError(asRequestFailure(error).message);
      setSaving(false);
    }
  };

  return (
    <section className={styles.narrow}>
      <LinkButton href="/expense" size="small">
        <ArrowLeft size={15} aria-hidden />
        {t`All claims`}
      </LinkButton>
      <h1 className={styles.title}>{t`New expense claim`}</h1>
      <form onSubmit={submit} noValidate className={styles.card}>
        {serverError && (
          <p className="form-error" role="alert">
            {serverError}
          </p>
        )}
        {categories.status === 'error' && (
          <p className="form-error" role="alert">
            {t`The categories could not be loaded.`} {categories.error.message}
          </p>
        )}
        <ClaimFields values={values} errors={errors} onChange={setValue} categories={categories.data} />
        <fieldset className={styles.receiptsField}>
          <legend>{t`Receipts`}</legend>
          <ReceiptPicker onFiles={addReceipts} disabled={saving} />
          {refusedReceipts.map((problem) => (
            <p key={problem} className="form-error" role="alert">
              {problem}
            </p>
          ))}
          {receipts.length > 0 && (
            <ul className={styles.chosen} aria-label={t`Chosen receipts`}>
              {receipts.map((file, index) => (
                <li key={`${file.name}-${index}`}>
                  <span className={styles.chosenName}>
                    <BreakableName name={file.name} />
                  </span>
                  <span className={styles.muted}>{formatBytes(file.size)}</span>
                  <Button size="small" variant="ghost" aria-label={t`Remove ${file.name}`} onClick={() => setReceipts(receipts.filter((_, at) => at !== index))}>
                    <Trash2 size={15} aria-hidden />
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </fieldset>
        <div className={styles.formActions}>
          <LinkButton href="/expense">{t`Cancel`}</LinkButton>
          <Button type="submit" variant="primary" disabled={saving}>
            <Save size={16} aria-hidden />
            {saving ? t`Saving…` : t`Save as draft`}
          </Button>
        </div>
      </form>
    </section>
  );
}
