import { useLingui } from '@lingui/react/macro';
import { LogIn } from 'lucide-react';
import { lazy } from 'react';
import { useLocation, useSearch } from 'wouter';
import { readStoredCredentials } from '../../app/stored-state';
import { useAuth } from '../../app/use-auth';
import { LinkButton } from '../../components/LinkButton';
import { Notice } from '../../components/Notice';
import { loginHref } from '../../lib/login-return';
import styles from './Upload.module.css';

/**
 * The forms, the task rows and the task manager are for those allowed to upload: a signed-out visitor's browser
 * loads none of their code. Where this browser holds credentials, it loads beside the auth machine.
 */
const loadWorkspace = () => import('./UploadWorkspace');
const { adminToken, apiKey } = readStoredCredentials();
if (adminToken || apiKey) void loadWorkspace().catch(() => undefined);
const UploadWorkspace = lazy(() => loadWorkspace().then((module) => ({ default: module.UploadWorkspace })));
const TasksButton = lazy(() => loadWorkspace().then((module) => ({ default: module.TasksButton })));

export default function UploadPage() {
  const { t } = useLingui();
  const auth = useAuth();
  const canUpload = auth.role === 'admin' || (auth.role === 'apiKey' && Boolean(auth.permissions?.file));
  // Back here after the login, shared files and all (they wait in the share target's inbox).
  const [path] = useLocation();
  const search = useSearch();
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <div>
          <h1>{t`File upload`}</h1>
          <p className={styles.lead}>{t`Upload files and share each with its own short link.`}</p>
        </div>
        {canUpload && <TasksButton />}
      </header>
      {canUpload ? (
        <UploadWorkspace />
      ) : (
        <Notice
          level={2}
          icon={<LogIn size={28} />}
          title={t`Log in to upload`}
          actions={
            <LinkButton href={auth.role === 'apiKey' ? '/admin' : loginHref(search ? `${path}?${search}` : path)} variant="primary">
              {t`Log in`}
            </LinkButton>
          }
        >
          {auth.role === 'apiKey'
            ? t`Your API key has no file permission, so it cannot upload files.`
            : t`Uploading needs an admin login or an API key with file permission.`}
        </Notice>
      )}
    </div>
  );
}
