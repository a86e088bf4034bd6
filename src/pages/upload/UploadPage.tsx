import * as Tabs from '@radix-ui/react-tabs';
import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { FileUp, Link2, LogIn, Share2 } from 'lucide-react';
import { Link, useLocation, useSearch } from 'wouter';
import { SHARED_PARAM } from '../../../contract/share-target';
import { useTaskManager } from '../../app/actors';
import { useAuth } from '../../app/use-auth';
import { LinkButton } from '../../components/LinkButton';
import { Notice } from '../../components/Notice';
import { loginHref } from '../../lib/login-return';
import { TaskManagerPanel } from '../../components/task-manager/TaskManagerPanel';
import taskStyles from '../../components/task-manager/TaskManager.module.css';
import { TaskRow } from '../../components/task-manager/TaskRow';
import { FileUploadPanel } from './FileUploadPanel';
import { RecentUploads } from './RecentUploads';
import styles from './Upload.module.css';
import { UrlUploadPanel } from './UrlUploadPanel';
import { useSharedFiles } from './useSharedFiles';
import { useUploadForm } from './useUploadForm';

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

/** The task manager's button and panel (only for those allowed to upload: its code loads with it). */
function TasksButton() {
  return <TaskManagerPanel manager={useTaskManager()} />;
}

/** The upload tabs and what they started; only for those allowed to upload. */
function UploadWorkspace() {
  const { t } = useLingui();
  const form = useUploadForm();
  const shared = useSharedFiles();
  // Said until an upload starts from this page: then the task rows tell the rest (the shared text's link stays).
  const sharedCount = form.batchTasks.length > 0 ? 0 : shared.files.length;
  return (
    <>
      {(sharedCount > 0 || shared.textId) && (
        <p className={styles.sharedNote} role="status">
          <Share2 size={18} aria-hidden />
          <span>
            {sharedCount > 0 &&
              plural(sharedCount, {
                one: 'One shared file is ready: check the settings below, then upload it.',
                other: '# shared files are ready: check the settings below, then upload them.',
              })}{' '}
            {shared.textId && <Link href={`/?${SHARED_PARAM}=${encodeURIComponent(shared.textId)}`}>{t`Open the shared text in the editor`}</Link>}
          </span>
        </p>
      )}
      <Tabs.Root defaultValue="files">
        <Tabs.List className={styles.tabs} aria-label={t`Upload method`}>
          <Tabs.Trigger className={styles.tab} value="files">
            <FileUp size={16} aria-hidden />
            {t`File upload`}
          </Tabs.Trigger>
          <Tabs.Trigger className={styles.tab} value="url">
            <Link2 size={16} aria-hidden />
            {t`URL upload`}
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="files">
          <FileUploadPanel form={form} sharedFiles={shared.files} />
        </Tabs.Content>
        <Tabs.Content value="url">
          <UrlUploadPanel form={form} />
        </Tabs.Content>
      </Tabs.Root>
      {form.batchTasks.length > 0 && (
        <ul className={taskStyles.list} aria-label={t`Uploads`}>
          {form.batchTasks.map((task) => (
            <TaskRow key={task.id} task={task.ref} showShareLink />
          ))}
        </ul>
      )}
      <RecentUploads items={form.recent} />
    </>
  );
}
