import { useLingui } from '@lingui/react/macro';
import { LogIn } from 'lucide-react';
import { Route, Switch } from 'wouter';
import { useAuth } from '../../app/use-auth';
import { LinkButton } from '../../components/LinkButton';
import { Notice } from '../../components/Notice';
import { PermissionDenied } from '../../components/PermissionDenied';
import { ClaimListView } from './ClaimListView';
import { ClaimView } from './ClaimView';
import { NewClaimView } from './NewClaimView';
import styles from './Expense.module.css';

/**
 * Expense claims for the admin and for keys with the expense permission: the list (`/expense`), a new claim
 * (`/expense/new`) and one claim (`/expense/{id}`).
 */
export default function ExpensePage() {
  const { t } = useLingui();
  const auth = useAuth();
  if (!auth.role) {
    return (
      <Notice
        icon={<LogIn size={28} />}
        title={t`Expense claims`}
        actions={
          <LinkButton href="/admin" variant="primary">
            {t`Log in`}
          </LinkButton>
        }
      >
        {t`Log in to file and follow expense claims: they need an admin login or an API key with expense permission.`}
      </Notice>
    );
  }
  if (auth.role === 'apiKey' && !auth.permissions?.expense) return <PermissionDenied />;
  const viewer = { role: auth.role };
  return (
    <div className={styles.page}>
      <Switch>
        <Route path="/expense">
          <ClaimListView viewer={viewer} />
        </Route>
        <Route path="/expense/new">
          <NewClaimView />
        </Route>
        <Route path="/expense/:id">{(params: { id: string }) => <ClaimView key={params.id} claimId={params.id} viewer={viewer} />}</Route>
      </Switch>
    </div>
  );
}
