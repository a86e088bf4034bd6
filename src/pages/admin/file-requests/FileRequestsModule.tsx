import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Copy, Inbox, Lock, LockOpen, Plus } from 'lucide-react';
import { useState } from 'react';
import type { FileRequest, FileRequestState } from '../../../../contract/file-requests';
import { useAuth } from '../../../app/use-auth';
import { Button } from '../../../components/Button';
import tableStyles from '../../../components/DataTable.module.css';
import { Dialog } from '../../../components/Dialog';
import { ModuleHeader } from '../../../components/ModuleHeader';
import { Notice } from '../../../components/Notice';
import { RowActions } from '../../../components/RowActions';
import { QrDialog } from '../../../components/share-link/QrDialog';
import { ShareLinkDisplay } from '../../../components/share-link/ShareLinkDisplay';
import { copyText } from '../../../lib/clipboard';
import { deleteFileRequest, fileRequestUrl, listFileRequests, updateFileRequest } from '../../../lib/api/file-requests';
import { formatBytes } from '../../../lib/format';
import { toasts } from '../../../lib/toast';
import { DateCell } from '../management/DateCell';
import { ManagementTable, type Column } from '../management/ManagementTable';
import { useManagementList } from '../management/use-management-list';
import { ReceivedFilesDialog } from './ReceivedFilesDialog';
import { RequestFormDialog } from './RequestFormDialog';

const PAGE_SIZE = 20;

/** File requests: every one for the admin, a key's own in the user panel. */
export default function FileRequestsModule({ title }: { title: string }) {
  const { t } = useLingui();
  const { role } = useAuth();
  const list = useManagementList({ load: (page) => listFileRequests(page, PAGE_SIZE), pageSize: PAGE_SIZE });
  const [qrFor, setQrFor] = useState<FileRequest>();
  const [receivedFor, setReceivedFor] = useState<FileRequest>();
  const [created, setCreated] = useState<FileRequest>();

  const stateText: Record<FileRequestState, string> = { open: t`Open`, closed: t`Closed`, expired: t`Expired`, full: t`Full` };

  const askDelete = (request: FileRequest) => {
    const name = request.title;
    list.ask({
      title: t`Delete this file request?`,
      description: t`"${name}" stops taking files at once. The files it received stay where they are.`,
      confirmLabel: t`Delete`,
      run: async () => {
        await deleteFileRequest(request.id);
        toasts.success(t`File request deleted`);
      },
    });
  };
  const setClosed = (request: FileRequest, closed: boolean) =>
    list.run(async () => {
      await updateFileRequest(request.id, { closed });
      toasts.success(closed ? t`File request closed` : t`File request reopened`);
    });
  const copyLink = async (request: FileRequest) => {
    if (await copyText(fileRequestUrl(request.slug))) toasts.success(t`Link copied`);
    else toasts.error(t`Copy failed, please copy it by hand`);
  };

  const columns: Column<FileRequest>[] = [
    {
      label: t`Title`,
      width: 'fill',
      cell: (request) => (
        // The state first: the ellipsis that cuts a long title must not cut "Full" or "Closed" with it.
        <span title={`${request.title} (${request.slug})`}>
          {request.state !== 'open' && <span className={`${tableStyles.badge} ${tableStyles.gone}`}>{stateText[request.state]}</span>} <strong>{request.title}</strong>{' '}
          <code>{request.slug}</code>
        </span>
      ),
    },
    // Capped, so that a long folder path leaves the title its room.
    { label: t`Files land`, width: 'clip', cell: (request) => (request.target.kind === 'folder' ? <code title={request.target.path}>{request.target.path}</code> : t`As file shares`) },
    {
      label: t`Received`,
      cell: (request) => {
        const files = request.files_received;
        const limit = request.max_files;
        const size = formatBytes(request.bytes_received);
        return (
          <Button size="small" onClick={() => setReceivedFor(request)}>
            <Inbox size={15} aria-hidden />
            {limit === null ? plural(files, { one: `# file (${size})`, other: `# files (${size})` }) : t`${files} of ${limit} files (${size})`}
          </Button>
        );
      },
    },
    { label: t`Expires`, cell: (request) => (request.expires_at ? <DateCell iso={request.expires_at} /> : t`Never`) },
    { label: t`Created`, cell: (request) => <DateCell iso={request.created_at} /> },
  ];

  return (
    <section>
      <ModuleHeader
        title={title}
        description={role === 'admin' ? t`Links through which anyone sends you files, newest first.` : t`The file requests this API key created.`}
        actions={
          <Button variant="primary" onClick={() => list.openEditor()}>
            <Plus size={16} aria-hidden />
            {t`New request`}
          </Button>
        }
      />

      <ManagementTable
        list={list}
        columns={columns}
        errorTitle={t`The file requests could not be loaded`}
        empty={
          <Notice level={2} icon={<Inbox size={32} />} title={t`No file requests yet`}>
            {t`Create one and send its link to whoever should send you files.`}
          </Notice>
        }
        rowData={(request) => ({ 'data-slug': request.slug, 'data-request-title': request.title })}
        rowActions={(request) => {
          const name = request.title;
          return (
            <RowActions name={name} openHref={`/request/${encodeURIComponent(request.slug)}`} onQr={() => setQrFor(request)} onEdit={() => list.openEditor(request)} onDelete={() => askDelete(request)}>
              <Button size="small" aria-label={t`Copy the link of ${name}`} onClick={() => void copyLink(request)}>
                <Copy size={15} aria-hidden />
              </Button>
              {request.closed ? (
                <Button size="small" aria-label={t`Reopen ${name}`} onClick={() => void setClosed(request, false)}>
                  <LockOpen size={15} aria-hidden />
                </Button>
              ) : (
                <Button size="small" aria-label={t`Close ${name}`} onClick={() => void setClosed(request, true)}>
                  <Lock size={15} aria-hidden />
                </Button>
              )}
            </RowActions>
          );
        }}
      />

      {list.editor && (
        <RequestFormDialog
          editing={list.editor.item}
          onClose={list.closeEditor}
          onSaved={(request, isNew) => {
            list.editorSaved(isNew ? undefined : t`File request updated`);
            if (isNew) setCreated(request);
          }}
        />
      )}
      {created && (
        <Dialog open onOpenChange={(open) => !open && setCreated(undefined)} title={t`File request created`} description={t`Send this link to whoever should send you files.`}>
          <ShareLinkDisplay url={fileRequestUrl(created.slug)} name={created.slug} />
        </Dialog>
      )}
      {receivedFor && <ReceivedFilesDialog request={receivedFor} onClose={() => setReceivedFor(undefined)} />}
      <QrDialog url={qrFor && fileRequestUrl(qrFor.slug)} name={qrFor?.title ?? ''} onClose={() => setQrFor(undefined)} />
    </section>
  );
}
