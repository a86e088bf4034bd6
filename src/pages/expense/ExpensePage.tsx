import { useLingui } from '@lingui/react/macro';
import { ComingSoon } from '../../components/ComingSoon';

export default function ExpensePage() {
  const { t } = useLingui();
  return <ComingSoon title={t`Expense management`} />;
}
