import { useLingui } from '@lingui/react/macro';
import { useCallback, useMemo, useState, type FormEvent } from 'react';
import type { ExpenseClaim } from '../../../contract/expenses';
import { Button } from '../../components/Button';
import { expenseCategories } from '../../lib/api/expenses';
import { useResource } from '../../lib/use-resource';
import { ClaimFields } from './ClaimFields';
import { claimChanges, claimFormValues, validateClaimForm, type ClaimFormErrors, type ClaimFormValues } from './claim-form';
import type { ClaimActor } from './use-claim';
import styles from './Expense.module.css';

/** The claim's fields, open for its owner while it is a draft or was rejected; a save sends only what changed. */
export function ClaimEditForm({ claim, actor, busy, serverError }: { claim: ExpenseClaim; actor: ClaimActor; busy: boolean; serverError?: string }) {
  const { t } = useLingui();
  const loaded = useResource(expenseCategories);
  // A category the admin has since removed stays the claim's until the owner picks another.
  const categories = useMemo(() => loaded.data && (loaded.data.includes(claim.category) ? loaded.data : [...loaded.data, claim.category]), [loaded.data, claim.category]);
  const [values, setValues] = useState<ClaimFormValues>(() => claimFormValues(claim));
  const [errors, setErrors] = useState<ClaimFormErrors>({});
  const setValue = useCallback(<K extends keyof ClaimFormValues>(field: K, value: ClaimFormValues[K]) => setValues((previous) => ({ ...previous, [field]: value })), []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { errors: found, request } = validateClaimForm(values, { now: new Date(), categories });
    setErrors(found);
    if (!request) return;
    const changes = claimChanges(claim, request);
    actor.send(Object.keys(changes).length > 0 ? { type: 'edit.save', changes } : { type: 'edit.cancel' });
  };

  return (
    <form onSubmit={submit} noValidate className={styles.card} aria-label={t`Edit claim`}>
      {serverError && (
        <p className="form-error" role="alert">
          {serverError}
        </p>
      )}
      <ClaimFields values={values} errors={errors} onChange={setValue} categories={categories} />
      <div className={styles.formActions}>
        <Button onClick={() => actor.send({ type: 'edit.cancel' })}>{t`Cancel`}</Button>
        <Button type="submit" variant="primary" disabled={busy}>
          {busy ? t`Saving…` : t`Save changes`}
        </Button>
      </div>
    </form>
  );
}
