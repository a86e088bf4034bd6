import { useLingui } from '@lingui/react/macro';
import { ComingSoon } from '../../components/ComingSoon';

export default function HomePage() {
  const { t } = useLingui();
  return <ComingSoon title={t`Online clipboard`} />;
}
