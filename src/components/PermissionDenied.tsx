import { useLingui } from '@lingui/react/macro';
import { Lock } from 'lucide-react';
import { Notice } from './Notice';

export function PermissionDenied() {
  const { t } = useLingui();
  return (
    <Notice icon={<Lock size={32} />} title={t`Permission denied`} role="alert">
      {t`You don't have permission to access this feature. Please contact the administrator.`}
    </Notice>
  );
}
