import { useLingui } from '@lingui/react/macro';
import { ComingSoon } from '../../components/ComingSoon';

export default function PasteViewPage() {
  const { t } = useLingui();
  return <ComingSoon title={t`View share`} />;
}
