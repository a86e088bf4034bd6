import { useLingui } from '@lingui/react/macro';
import { useCallback } from 'react';
import type { FileRequest } from '../../../../contract/file-requests';
import tableStyles from '../../../components/DataTable.module.css';
import { Dialog } from '../../../components/Dialog';
import { ResourceStatus } from '../../../components/ResourceStatus';
import { fileShareUrl } from '../../../lib/api/files';
import { listReceivedFiles } from '../../../lib/api/file-requests';
import { formatBytes, formatDateTime } from '../../../lib/format';
import { useResource } from '../../../lib/use-resource';
import styles from './FileRequests.module.css';

/** The files a request received: who sent each (the name they typed) and when, and where it landed. */
export function ReceivedFilesDialog({ request, onClose }: { request: FileRequest; onClose: () => void }) {
  const { t, i18n } = useLingui();
  const files = useResource(useCallback(() => listReceivedFiles(request.id), [request.id]));
  const title = request.title;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={t`Files received for ${title}`}>
      <ResourceStatus resource={files} errorTitle={t`The files could not be loaded`} />
      {files.data?.length === 0 && <p className={tableStyles.muted}>{t`No files received yet.`}</p>}
      {files.data && files.data.length > 0 && (
        <ul className={styles.received} aria-label={t`Files received`}>
          {files.data.map((file) => (
            <li key={file.id} data-received-file={file.filename}>
              <strong>{file.filename}</strong>
              <span className={tableStyles.muted}>
                {formatBytes(file.size)} · {formatDateTime(file.created_at, i18n.locale)} · {file.sender_name ?? t`No name given`}
              </span>
              {file.path && <code className={styles.path}>{file.path}</code>}
              {file.share_slug && (
                <a href={fileShareUrl(file.share_slug)} target="_blank" rel="noreferrer">
                  {t`Open the file share`}
                </a>
              )}
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}
