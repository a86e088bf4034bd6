import { useLingui } from '@lingui/react/macro';
import { lazy, Suspense } from 'react';
import { ADMIN_MODULE_TITLES, type AdminModule } from '../../app/admin-modules';
import { ComingSoon } from '../../components/ComingSoon';
import { PageSkeleton } from '../../components/PageSkeleton';

const KeyManagement = lazy(() => import('./key-management/KeyManagement'));
const SettingsModule = lazy(() => import('./settings/SettingsModule'));

export function ModuleContent({ module }: { module: AdminModule }) {
  const { i18n } = useLingui();
  const title = i18n._(ADMIN_MODULE_TITLES[module]);
  return (
    <Suspense fallback={<PageSkeleton />}>
      {module === 'key-management' ? (
        <KeyManagement title={title} />
      ) : module === 'settings' ? (
        <SettingsModule title={title} />
      ) : (
        <ComingSoon title={title} level={2} />
      )}
    </Suspense>
  );
}
