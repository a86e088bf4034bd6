import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { FolderOpen, Trash2 } from 'lucide-react';
import { useCallback, useState } from 'react';
import { asRequestFailure } from '../../../../contract/envelope';
import { ADMIN_FILE_PAGE_SIZE, type FileShare } from '../../../../contract/files';
import { useAuth } from '../../../app/use-auth';
import { Button } from '../../../components/Button';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import tableStyles from '../../../components/DataTable.module.css';
import { FileEditDialog } from '../../../components/file-edit/FileEditDialog';
import { ModuleHeader } from '../../../components/ModuleHeader';
import { RowActions } from '../../../components/RowActions';
import { Notice } from '../../../components/Notice';
import { ResourceStatus } from '../../../components/ResourceStatus';
import { Pagination } from '../../../components/Pagination';
import { QrDialog } from '../../../components/share-link/QrDialog';
import { batchDeleteFiles, deleteFile, fileShareUrl, listFiles } from '../../../lib/api/files';
import { formatBytes, formatDateTime } from '../../../lib/format';
import { toasts } from '../../../lib/toast';
import { useResource } from '../../../lib/use-resource';
import { useSelection } from '../../../lib/use-selection';

type Pending = { kind: 'one'; file: FileShare } | { kind: 'selected' } | undefined;

/** Every file share for admins; an API key's own files in the user panel. */
export default function FileManagement({ title }: { title: string }) {
  const { t, i18n } = useLingui();
  const { role } = useAuth();
  const [page, setPage] = useState(1);
  const load = useCallback(() => listFiles(ADMIN_FILE_PAGE_SIZE, (page - 1) * ADMIN_FILE_PAGE_SIZE), [page]);
  const list = useResource(load);
  const { selected, toggle, toggleAll, allOf, clear } = useSelection();
  const [pending, setPending] = useState<Pending>();
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState<FileShare>();
  const [qrFor, setQrFor] = useState<FileShare>();

  const items = list.data?.items ?? [];
  const ids = items.map((item) => item.id);

  const remainingViews = (file: FileShare) => {
    if (file.maxViews === 0) return t`Unlimited`;
    const left = Math.max(0, file.maxViews - file.views);
    return left === 0 ? t`Used up` : t`${left} left`;
  };

  const deleteCount = pending?.kind === 'one' ? 1 : selected.size;

  const confirm = async () => {
    if (!pending) return;
    setBusy(true);
    try {
      if (pending.kind === 'one') {
        await deleteFile(pending.file.id);
        toasts.success(t`File deleted`);
      } else {
        const { deleted, missing } = await batchDeleteFiles([...selected]);
        if (missing > 0) toasts.show('info', t`${deleted} deleted, ${missing} already gone`);
        else toasts.success(t`${deleted} deleted`);
        clear();
      }
      setPending(undefined);
      list.reload();
    } catch (error) {
      toasts.error(asRequestFailure(error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section>
      <ModuleHeader
        title={title}
        description={role === 'admin' ? t`Every file share, newest first.` : t`The files this API key uploaded.`}
        actions={
          <Button disabled={selected.size === 0} onClick={() => setPending({ kind: 'selected' })}>
            <Trash2 size={16} aria-hidden />
            {t`Delete selected (${selected.size})`}
          </Button>
        }
      />
      <ResourceStatus resource={list} errorTitle={t`The files could not be loaded`} />
      {list.data && items.length === 0 && (
        <Notice level={2} icon={<FolderOpen size={32} />} title={t`No files yet`}>
          {t`Upload files on the upload page; they will be listed here.`}
        </Notice>
      )}
      {items.length > 0 && (
        <div className={tableStyles.wrap}>
          <table className={tableStyles.table}>
            <thead>
              <tr>
                <th scope="col">
                  <input type="checkbox" aria-label={t`Select all on this page`} checked={allOf(ids)} onChange={() => toggleAll(ids)} />
                </th>
                <th scope="col">{t`Name`}</th>
                <th scope="col">{t`Size`}</th>
                <th scope="col">{t`Type`}</th>
                <th scope="col">{t`Password`}</th>
                <th scope="col">{t`Remaining views`}</th>
                <th scope="col">{t`Created`}</th>
                <th scope="col">
                  <span className="visually-hidden">{t`Actions`}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((file) => (
                <tr key={file.id} data-slug={file.slug}>
                  <td data-label={t`Select`}>
                    <input type="checkbox" aria-label={t`Select ${file.filename}`} checked={selected.has(file.id)} onChange={() => toggle(file.id)} />
                  </td>
                  <td data-label={t`Name`} className={tableStyles.stack}>
                    <strong>{file.filename}</strong>
                    <span className={`mono ${tableStyles.muted}`}>{file.slug}</span>
                  </td>
                  <td data-label={t`Size`}>{formatBytes(file.size)}</td>
                  <td data-label={t`Type`} className="mono">
                    {file.mimetype}
                  </td>
                  <td data-label={t`Password`}>{file.hasPassword ? t`Encrypted` : t`None`}</td>
                  <td data-label={t`Remaining views`}>{remainingViews(file)}</td>
                  <td data-label={t`Created`}>{formatDateTime(file.created_at, i18n.locale)}</td>
                  <td data-label={t`Actions`}>
                    <RowActions
                      name={file.filename}
                      openHref={`/file/${encodeURIComponent(file.slug)}`}
                      onQr={() => setQrFor(file)}
                      onEdit={() => setEditing(file)}
                      onDelete={() => setPending({ kind: 'one', file })}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.data && list.data.pagination.total > ADMIN_FILE_PAGE_SIZE && (
        <Pagination page={page} pageSize={ADMIN_FILE_PAGE_SIZE} total={list.data.pagination.total} onPage={setPage} />
      )}
      <ConfirmDialog
        open={pending !== undefined}
        onOpenChange={(open) => !open && setPending(undefined)}
        title={pending?.kind === 'one' ? t`Delete this file?` : plural({ count: deleteCount }, { one: 'Delete # file?', other: 'Delete # files?' })}
        description={plural(
          { count: deleteCount },
          {
            one: 'The file is removed from storage and its link stops working. This cannot be undone.',
            other: 'The files are removed from storage and their links stop working. This cannot be undone.',
          },
        )}
        confirmLabel={t`Delete`}
        busy={busy}
        onConfirm={confirm}
      />
      {editing && (
        <FileEditDialog
          file={editing}
          onClose={() => setEditing(undefined)}
          onSaved={() => {
            setEditing(undefined);
            toasts.success(t`Share updated`);
            list.reload();
          }}
        />
      )}
      <QrDialog url={qrFor && fileShareUrl(qrFor.slug)} name={qrFor?.filename ?? ''} onClose={() => setQrFor(undefined)} />
    </section>
  );
}
