import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { FolderOpen } from 'lucide-react';
import { useState } from 'react';
import { ADMIN_FILE_PAGE_SIZE, type FileShare } from '../../../../contract/files';
import { useAuth } from '../../../app/use-auth';
import tableStyles from '../../../components/DataTable.module.css';
import { FileEditDialog } from '../../../components/file-edit/FileEditDialog';
import { ModuleHeader } from '../../../components/ModuleHeader';
import { RowActions } from '../../../components/RowActions';
import { Notice } from '../../../components/Notice';
import { QrDialog } from '../../../components/share-link/QrDialog';
import { deleteFile } from '../../../lib/api/file-reads';
import { batchDeleteFiles, fileShareUrl, listFiles } from '../../../lib/api/files';
import { searchShares } from '../../../lib/api/search';
import { formatBytes } from '../../../lib/format';
import { toasts } from '../../../lib/toast';
import { DateCell } from '../management/DateCell';
import { DeleteSelectedButton } from '../management/DeleteSelectedButton';
import { PasswordCell } from '../management/PasswordCell';
import { ManagementTable, type Column } from '../management/ManagementTable';
import { useManagementList } from '../management/use-management-list';

const loadFiles = async (page: number) => {
  const { items, pagination } = await listFiles(ADMIN_FILE_PAGE_SIZE, (page - 1) * ADMIN_FILE_PAGE_SIZE);
  return { items, total: pagination.total };
};

/** Every file share for admins; an API key's own files in the user panel. */
export default function FileManagement({ title }: { title: string }) {
  const { t } = useLingui();
  const { role } = useAuth();
  const list = useManagementList({
    load: loadFiles,
    pageSize: ADMIN_FILE_PAGE_SIZE,
    search: (query) => searchShares(query).then((found) => found.files),
  });
  const [qrFor, setQrFor] = useState<FileShare>();

  const remainingViews = (file: FileShare) => {
    if (file.maxViews === 0) return t`Unlimited`;
    const left = Math.max(0, file.maxViews - file.views);
    return left === 0 ? t`Used up` : t`${left} left`;
  };

  const consequence = (count: number) =>
    plural(
      { count },
      {
        one: 'The file is removed from storage and its link stops working. This cannot be undone.',
        other: 'The files are removed from storage and their links stop working. This cannot be undone.',
      },
    );

  const askDelete = (file: FileShare) =>
    list.ask({
      title: t`Delete this file?`,
      description: consequence(1),
      confirmLabel: t`Delete`,
      run: async () => {
        await deleteFile(file.id);
        toasts.success(t`File deleted`);
      },
    });

  const columns: Column<FileShare>[] = [
    { label: t`Link suffix`, cell: (file) => <code>{file.slug}</code> },
    { label: t`Name`, width: 'fill', cell: (file) => <strong title={file.filename}>{file.filename}</strong> },
    { label: t`Size`, cell: (file) => formatBytes(file.size) },
    {
      label: t`Type`,
      width: 'clip',
      cell: (file) => (
        <span className={`mono ${tableStyles.muted}`} title={file.mimetype}>
          {file.mimetype}
        </span>
      ),
    },
    { label: t`Password`, cell: (file) => <PasswordCell set={file.hasPassword} /> },
    { label: t`Remaining views`, cell: remainingViews },
    { label: t`Created`, cell: (file) => <DateCell iso={file.created_at} /> },
  ];

  return (
    <section>
      <ModuleHeader
        title={title}
        description={role === 'admin' ? t`Every file share, newest first.` : t`The files this API key uploaded.`}
        actions={
          <DeleteSelectedButton
            list={list}
            deleteMany={batchDeleteFiles}
            question={(count) => ({
              title: plural({ count }, { one: 'Delete # file?', other: 'Delete # files?' }),
              description: consequence(count),
            })}
          />
        }
      />
      <ManagementTable
        list={list}
        columns={columns}
        errorTitle={t`The files could not be loaded`}
        searchLabel={t`Search by link, file name or remark`}
        empty={
          <Notice level={2} icon={<FolderOpen size={32} />} title={t`No files yet`}>
            {t`Upload files on the upload page; they will be listed here.`}
          </Notice>
        }
        rowData={(file) => ({ 'data-slug': file.slug })}
        selectLabel={(file) => t`Select ${file.filename}`}
        rowActions={(file) => (
          <RowActions
            name={file.filename}
            openHref={`/file/${encodeURIComponent(file.slug)}`}
            onQr={() => setQrFor(file)}
            onEdit={() => list.openEditor(file)}
            onDelete={() => askDelete(file)}
          />
        )}
      />
      {list.editor?.item && (
        <FileEditDialog file={list.editor.item} onClose={list.closeEditor} onSaved={() => list.editorSaved(t`Share updated`)} />
      )}
      <QrDialog url={qrFor && fileShareUrl(qrFor.slug)} name={qrFor?.filename ?? ''} onClose={() => setQrFor(undefined)} />
    </section>
  );
}
