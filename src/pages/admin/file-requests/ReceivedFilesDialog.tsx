import { useLingui } from '@lingui/react/macro';
import { useCallback } from 'react';
import { Link } from 'wouter';
import type { FileRequest, FileRequestUpload } from '../../../../contract/file-requests';
import tableStyles from '../../../components/DataTable.module.css';
import { Dialog } from '../../../components/Dialog';
import { ResourceStatus } from '../../../components/ResourceStatus';
import { fileShareUrl } from '../../../lib/api/files';
import { listReceivedFiles } from '../../../lib/api/file-requests';
import { formatBytes, formatDateTime } from '../../../lib/format';
import { useResource } from '../../../lib/use-resource';
import { explorerHref, nameOf, parentOf } from '../../mount-explorer/explorer-path';
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
              <ReceivedName file={file} />
              <span className={tableStyles.muted}>
                {formatBytes(file.size)} · {formatDateTime(file.created_at, i18n.locale)} · {file.sender_name ?? t`No name given`}
              </span>
              {file.path && <code className={styles.path}>{file.path}</code>}
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}

/**
 * The file as a link to where it is: its share's page, or its folder in the mount explorer; and the name its sender
 * gave it where it was stored under another.
 */
function ReceivedName({ file }: { file: FileRequestUpload }) {
  const { t } = useLingui();
  const sentAs = file.sent_name;
  const name = <strong>{file.filename}</strong>;
  return (
    <span>
      {file.share_slug ? (
        <a href={fileShareUrl(file.share_slug)} target="_blank" rel="noreferrer">
          {name}
        </a>
      ) : file.path ? (
        <Link href={explorerHref(parentOf(file.path), nameOf(file.path))}>{name}</Link>
      ) : (
        name
      )}
      {sentAs !== file.filename && <span className={tableStyles.muted}> {t`(sent as ${sentAs})`}</span>}
    </span>
  );
}
