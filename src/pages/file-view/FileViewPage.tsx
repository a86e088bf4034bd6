import { useLingui } from '@lingui/react/macro';
import { ComingSoon } from '../../components/ComingSoon';

export default function FileViewPage() {
  const { t } = useLingui();
  return <ComingSoon title={t`File preview`} />;
}
