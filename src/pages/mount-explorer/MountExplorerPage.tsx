import { useLingui } from '@lingui/react/macro';
import { LogIn } from 'lucide-react';
import { Redirect, useLocation } from 'wouter';
import { useAuth } from '../../app/use-auth';
import { LinkButton } from '../../components/LinkButton';
import { Notice } from '../../components/Notice';
import { PermissionDenied } from '../../components/PermissionDenied';
import { Explorer } from './Explorer';
import { explorerHref, folderOfLocation } from './explorer-path';

/** The mount explorer for admins and keys with mount permission; a key starts at its base path. */
export default function MountExplorerPage() {
  const { t } = useLingui();
  const auth = useAuth();
  const [location] = useLocation();
  if (!auth.role) {
    return (
      <Notice
        icon={<LogIn size={28} />}
        title={t`Mount explorer`}
        actions={
          <LinkButton href="/admin" variant="primary">
            {t`Log in`}
          </LinkButton>
        }
      >
        {t`Log in to browse the mounted storage: the mount explorer needs an admin login or an API key with mount permission.`}
      </Notice>
    );
  }
  if (auth.role === 'apiKey' && !auth.permissions?.mount) {
    return <PermissionDenied />;
  }
  const basicPath = auth.role === 'apiKey' ? (auth.basicPath ?? '/') : '/';
  if (basicPath !== '/' && folderOfLocation(location) === '/') return <Redirect to={explorerHref(basicPath)} replace />;
  return <Explorer />;
}
