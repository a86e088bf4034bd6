import { useLingui } from '@lingui/react/macro';
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { ADMIN_MODULE_TITLES, type AdminModule } from '../../app/admin-modules';
import { ComingSoon } from '../../components/ComingSoon';
import { PageSkeleton } from '../../components/PageSkeleton';

type ModulePage = LazyExoticComponent<ComponentType<{ title: string }>>;

/** The modules built so far, each its own chunk; the others say plainly that they are still to come. */
const MODULE_PAGES: Partial<Record<AdminModule, ModulePage>> = {
  dashboard: lazy(() => import('./dashboard/Dashboard')),
  'file-management': lazy(() => import('./file-management/FileManagement')),
  'file-requests': lazy(() => import('./file-requests/FileRequestsModule')),
  tasks: lazy(() => import('./tasks/TasksModule')),
  'storage-config': lazy(() => import('./storage-config/StorageConfigModule')),
  'text-management': lazy(() => import('./text-management/TextManagement')),
  'key-management': lazy(() => import('./key-management/KeyManagement')),
  webhooks: lazy(() => import('./webhooks/WebhooksModule')),
  'mount-management': lazy(() => import('./mount-management/MountManagement')),
  settings: lazy(() => import('./settings/SettingsModule')),
};

export function ModuleContent({ module }: { module: AdminModule }) {
  const { i18n } = useLingui();
  const title = i18n._(ADMIN_MODULE_TITLES[module]);
  const Page = MODULE_PAGES[module];
  return <Suspense fallback={<PageSkeleton />}>{Page ? <Page title={title} /> : <ComingSoon title={title} level={2} />}</Suspense>;
}
