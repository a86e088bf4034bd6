import { useLingui } from '@lingui/react/macro';
import { Lock } from 'lucide-react';
import tableStyles from '../../../components/DataTable.module.css';

/** Whether a share asks for a password: a lock and "Yes", or a muted "No". */
export function PasswordCell({ set }: { set: boolean }) {
  const { t } = useLingui();
  if (!set) return <span className={tableStyles.muted}>{t`No`}</span>;
  return (
    <span className={tableStyles.locked}>
      <Lock size={14} aria-hidden />
      {t`Yes`}
    </span>
  );
}
