import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { FileText } from 'lucide-react';
import { useState } from 'react';
import { ADMIN_PASTE_PAGE_SIZE, type PasteState, type PasteSummary } from '../../../../contract/pastes';
import { useAuth } from '../../../app/use-auth';
import { Button } from '../../../components/Button';
import tableStyles from '../../../components/DataTable.module.css';
import { ModuleHeader } from '../../../components/ModuleHeader';
import { RowActions } from '../../../components/RowActions';
import { Notice } from '../../../components/Notice';
import { PasteEditDialog } from '../../../components/paste-edit/PasteEditDialog';
import { QrDialog } from '../../../components/share-link/QrDialog';
import { pasteShareUrl } from '../../../lib/api/paste-links';
import { batchDeletePastes, clearExpiredPastes, deletePaste, listPastes } from '../../../lib/api/pastes';
import { searchShares } from '../../../lib/api/search';
import { toasts } from '../../../lib/toast';
import { DateCell } from '../management/DateCell';
import { DeleteSelectedButton } from '../management/DeleteSelectedButton';
import { PasswordCell } from '../management/PasswordCell';
import { ManagementTable, type Column } from '../management/ManagementTable';
import { ShortText } from '../management/ShortText';
import { useManagementList } from '../management/use-management-list';
import { markdownToPlainText } from './plain-text';

/** Every paste for admins; an API key's own pastes in the user panel. */
export default function TextManagement({ title }: { title: string }) {
  const { t } = useLingui();
  const { role } = useAuth();
  const list = useManagementList({
    load: (page) => listPastes(page, ADMIN_PASTE_PAGE_SIZE),
    pageSize: ADMIN_PASTE_PAGE_SIZE,
    search: (query) => searchShares(query).then((found) => found.pastes),
  });
  const [qrFor, setQrFor] = useState<PasteSummary>();

  const stateText: Record<PasteState, string> = { active: t`Active`, expired: t`Expired`, used_up: t`Used up` };

  const askDelete = (paste: PasteSummary) =>
    list.ask({
      title: t`Delete this share?`,
      description: t`"${paste.slug}" stops working at once. This cannot be undone.`,
      confirmLabel: t`Delete`,
      run: async () => {
        await deletePaste(paste.id);
        toasts.success(t`Share deleted`);
      },
    });

  const askClearExpired = () =>
    list.ask({
      title: t`Clear expired shares?`,
      description: t`Every expired or used-up share is deleted. This cannot be undone.`,
      confirmLabel: t`Clear`,
      run: async () => {
        const { deleted } = await clearExpiredPastes();
        toasts.success(t`${deleted} expired or used-up shares removed`);
      },
    });

  const columns: Column<PasteSummary>[] = [
    {
      label: t`Link suffix`,
      cell: (paste) => (
        <>
          <code>{paste.slug}</code>
          {paste.state !== 'active' && <span className={`${tableStyles.badge} ${tableStyles.gone}`}>{stateText[paste.state]}</span>}
        </>
      ),
    },
    {
      label: t`Content`,
      width: 'fill',
      cell: (paste) => {
        // The server cannot read an encrypted paste: there is no preview to show.
        const preview = paste.encryption ? t`End-to-end encrypted` : markdownToPlainText(paste.preview);
        return (
          <span title={paste.remark ? `${paste.remark}: ${preview}` : preview}>
            {paste.remark && <strong>{paste.remark} </strong>}
            <span className={tableStyles.muted}>{preview}</span>
          </span>
        );
      },
    },
    { label: t`Password`, cell: (paste) => <PasswordCell set={paste.hasPassword} /> },
    {
      label: t`Views`,
      cell: (paste) =>
        paste.maxViews > 0 ? (
          `${paste.views} / ${paste.maxViews}`
        ) : (
          // "3 / ∞" fits the cell; the words are for screen readers and the hover.
          <ShortText short={`${paste.views} / ∞`} full={t`${paste.views} (unlimited)`} />
        ),
    },
    { label: t`Expires`, cell: (paste) => (paste.expiresAt ? <DateCell iso={paste.expiresAt} /> : t`Never`) },
    { label: t`Created`, cell: (paste) => <DateCell iso={paste.createdAt} /> },
  ];

  return (
    <section>
      <ModuleHeader
        title={title}
        description={role === 'admin' ? t`Every text share, newest first.` : t`The text shares this API key created.`}
        actions={
          <>
            <DeleteSelectedButton
              list={list}
              deleteMany={batchDeletePastes}
              question={(count) => ({
                title: plural({ count }, { one: 'Delete # share?', other: 'Delete # shares?' }),
                description: plural(
                  { count },
                  { one: 'Its link stops working at once. This cannot be undone.', other: 'Their links stop working at once. This cannot be undone.' },
                ),
              })}
            />
            {role === 'admin' && <Button onClick={askClearExpired}>{t`Clear expired`}</Button>}
          </>
        }
      />

      <ManagementTable
        list={list}
        columns={columns}
        errorTitle={t`The shares could not be loaded`}
        searchLabel={t`Search by link, remark or text`}
        empty={
          <Notice level={2} icon={<FileText size={32} />} title={t`No text shares yet`}>
            {t`Write something on the home page and share it; it will be listed here.`}
          </Notice>
        }
        rowData={(paste) => ({ 'data-slug': paste.slug })}
        selectLabel={(paste) => t`Select ${paste.slug}`}
        rowActions={(paste) => (
          <RowActions
            name={paste.slug}
            openHref={`/paste/${encodeURIComponent(paste.slug)}`}
            onQr={() => setQrFor(paste)}
            onEdit={() => list.openEditor(paste)}
            onDelete={() => askDelete(paste)}
          />
        )}
      />

      {list.editor?.item && (
        <PasteEditDialog id={list.editor.item.id} onClose={list.closeEditor} onSaved={() => list.editorSaved(t`Share updated`)} />
      )}
      <QrDialog url={qrFor && pasteShareUrl(qrFor.slug)} name={qrFor?.slug ?? ''} onClose={() => setQrFor(undefined)} />
    </section>
  );
}
