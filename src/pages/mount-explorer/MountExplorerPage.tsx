import { useLingui } from '@lingui/react/macro';
import { ComingSoon } from '../../components/ComingSoon';

export default function MountExplorerPage() {
  const { t } = useLingui();
  return <ComingSoon title={t`Mount explorer`} />;
}
