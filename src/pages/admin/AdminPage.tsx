import { useLingui } from '@lingui/react/macro';
import { useEffect } from 'react';
import { Redirect, useParams, useSearch } from 'wouter';
import { ADMIN_MODULES, isAdminModule, KEY_MODULE_PERMISSION, type AdminModule } from '../../app/admin-modules';
import { useAuth } from '../../app/use-auth';
import { ConnectedLoginForm } from '../../app/shell/ConnectedLoginForm';
import { AdminLayout } from './AdminLayout';
import { LoginCard } from './LoginCard';
import { ModuleContent } from './ModuleContent';
import { PermissionDenied } from '../../components/PermissionDenied';
import { returnPath } from '../../lib/login-return';
import { landingPathOf } from '../../app/shell/nav-links';

export default function AdminPage() {
  const { t } = useLingui();
  const params = useParams<{ module?: string }>();
  const auth = useAuth();
  const { send } = auth;
  const returnTo = returnPath(useSearch());

  // The route guard: re-check a stored token on entering, never block.
  useEffect(() => send({ type: 'auth.guard' }), [send, params.module]);

  if (!auth.role) {
    return (
      <LoginCard title={t`Log in to Clipstash`} returning={returnTo !== undefined}>
        <ConnectedLoginForm />
      </LoginCard>
    );
  }

  // Sent here from a page that needs a login (the editor, the upload page): back there, where the work waits.
  if (returnTo) return <Redirect to={returnTo} replace />;
  // A key with no module here (expense or mount only) has its work elsewhere.
  const landing = params.module === undefined ? landingPathOf(auth) : undefined;
  if (landing) return <Redirect to={landing} replace />;

  const allowed = ADMIN_MODULES.filter((module) => {
    if (auth.role === 'admin') return true;
    const needed = KEY_MODULE_PERMISSION[module];
    return needed !== undefined && Boolean(auth.permissions?.[needed]);
  });
  if (params.module !== undefined && !isAdminModule(params.module)) return <Redirect to="/admin" replace />;
  const current: AdminModule | undefined = params.module ?? allowed[0];

  return (
    <AdminLayout modules={allowed} current={current}>
      {current && allowed.includes(current) ? <ModuleContent module={current} /> : <PermissionDenied />}
    </AdminLayout>
  );
}
