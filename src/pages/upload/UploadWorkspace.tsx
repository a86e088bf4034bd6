import * as Tabs from '@radix-ui/react-tabs';
import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { FileUp, Link2, Share2 } from 'lucide-react';
import { Link } from 'wouter';
import { SHARED_PARAM } from '../../../contract/share-target';
import { useTaskManager } from '../../app/actors';
import { TaskManagerPanel } from '../../components/task-manager/TaskManagerPanel';
import taskStyles from '../../components/task-manager/TaskManager.module.css';
import { TaskRow } from '../../components/task-manager/TaskRow';
import { FileUploadPanel } from './FileUploadPanel';
import { RecentUploads } from './RecentUploads';
import styles from './Upload.module.css';
import { UrlUploadPanel } from './UrlUploadPanel';
import { useSharedFiles } from './useSharedFiles';
import { useUploadForm } from './useUploadForm';

/** The task manager's button and panel (only for those allowed to upload: its code loads with it). */
export function TasksButton() {
  return <TaskManagerPanel manager={useTaskManager()} />;
}

/** The upload tabs and what they started; only for those allowed to upload. */
export function UploadWorkspace() {
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
