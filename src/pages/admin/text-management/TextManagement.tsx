import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { FileText, Trash2 } from 'lucide-react';
import { useCallback, useState } from 'react';
import { asRequestFailure } from '../../../../contract/envelope';
import { ADMIN_PASTE_PAGE_SIZE, type PasteState, type PasteSummary } from '../../../../contract/pastes';
import { useAuth } from '../../../app/use-auth';
import { Button } from '../../../components/Button';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import tableStyles from '../../../components/DataTable.module.css';
import { ModuleHeader } from '../../../components/ModuleHeader';
import { RowActions } from '../../../components/RowActions';
import { Notice } from '../../../components/Notice';
import { ResourceStatus } from '../../../components/ResourceStatus';
import { Pagination } from '../../../components/Pagination';
import { PasteEditDialog } from '../../../components/paste-edit/PasteEditDialog';
import { QrDialog } from '../../../components/share-link/QrDialog';
import { batchDeletePastes, clearExpiredPastes, deletePaste, listPastes, pasteShareUrl } from '../../../lib/api/pastes';
import { formatDateTime } from '../../../lib/format';
import { toasts } from '../../../lib/toast';
import { useResource } from '../../../lib/use-resource';
import { useSelection } from '../../../lib/use-selection';

type Pending = { kind: 'one'; paste: PasteSummary } | { kind: 'selected' } | { kind: 'expired' } | undefined;

/** Every paste for admins; an API key's own pastes in the user panel. */
export default function TextManagement({ title }: { title: string }) {
  const { t, i18n } = useLingui();
  const { role } = useAuth();
  const [page, setPage] = useState(1);
  const load = useCallback(() => listPastes(page, ADMIN_PASTE_PAGE_SIZE), [page]);
  const list = useResource(load);
  const { selected, toggle, toggleAll, allOf, clear } = useSelection();
  const [pending, setPending] = useState<Pending>();
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState<string>();
  const [qrFor, setQrFor] = useState<PasteSummary>();

  const items = list.data?.items ?? [];
  const ids = items.map((item) => item.id);

  const stateText: Record<PasteState, string> = { active: t`Active`, expired: t`Expired`, used_up: t`Used up` };

  const confirm = async () => {
    if (!pending) return;
    setBusy(true);
    try {
      if (pending.kind === 'one') {
        await deletePaste(pending.paste.id);
        toasts.success(t`Share deleted`);
      } else if (pending.kind === 'selected') {
        const { deleted, missing } = await batchDeletePastes([...selected]);
        if (missing > 0) toasts.show('info', t`${deleted} deleted, ${missing} already gone`);
        else toasts.success(t`${deleted} deleted`);
        clear();
      } else {
        const { deleted } = await clearExpiredPastes();
        toasts.success(t`${deleted} expired or used-up shares removed`);
      }
      setPending(undefined);
      list.reload();
    } catch (error) {
      toasts.error(asRequestFailure(error).message);
    } finally {
      setBusy(false);
    }
  };

  const confirmText =
    pending?.kind === 'one'
      ? { title: t`Delete this share?`, description: t`"${pending.paste.slug}" stops working at once. This cannot be undone.` }
      : pending?.kind === 'selected'
        ? {
            title: plural({ count: selected.size }, { one: 'Delete # share?', other: 'Delete # shares?' }),
            description: plural(
              { count: selected.size },
              { one: 'Its link stops working at once. This cannot be undone.', other: 'Their links stop working at once. This cannot be undone.' },
            ),
          }
        : { title: t`Clear expired shares?`, description: t`Every expired or used-up share is deleted. This cannot be undone.` };

  return (
    <section>
      <ModuleHeader
        title={title}
        description={role === 'admin' ? t`Every text share, newest first.` : t`The text shares this API key created.`}
        actions={
          <>
            <Button disabled={selected.size === 0} onClick={() => setPending({ kind: 'selected' })}>
              <Trash2 size={16} aria-hidden />
              {t`Delete selected (${selected.size})`}
            </Button>
            {role === 'admin' && <Button onClick={() => setPending({ kind: 'expired' })}>{t`Clear expired`}</Button>}
          </>
        }
      />

      <ResourceStatus resource={list} errorTitle={t`The shares could not be loaded`} />
      {list.data && items.length === 0 && (
        <Notice level={2} icon={<FileText size={32} />} title={t`No text shares yet`}>
          {t`Write something on the home page and share it; it will be listed here.`}
        </Notice>
      )}
      {items.length > 0 && (
        <div className={tableStyles.wrap}>
          <table className={tableStyles.table}>
            <thead>
              <tr>
                <th scope="col">
                  <input
                    type="checkbox"
                    aria-label={t`Select all on this page`}
                    checked={allOf(ids)}
                    onChange={() => toggleAll(ids)}
                  />
                </th>
                <th scope="col">{t`Link suffix`}</th>
                <th scope="col">{t`Content`}</th>
                <th scope="col">{t`Password`}</th>
                <th scope="col">{t`Views`}</th>
                <th scope="col">{t`Expires`}</th>
                <th scope="col">{t`Created`}</th>
                <th scope="col">
                  <span className="visually-hidden">{t`Actions`}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((paste) => (
                <tr key={paste.id} data-slug={paste.slug}>
                  <td data-label={t`Select`}>
                    <input type="checkbox" aria-label={t`Select ${paste.slug}`} checked={selected.has(paste.id)} onChange={() => toggle(paste.id)} />
                  </td>
                  <td data-label={t`Link suffix`}>
                    <code>{paste.slug}</code>
                    {paste.state !== 'active' && <span className={`${tableStyles.badge} ${tableStyles.gone}`}>{stateText[paste.state]}</span>}
                  </td>
                  <td data-label={t`Content`} className={tableStyles.stack}>
                    {paste.remark && <strong>{paste.remark}</strong>}
                    <span className={tableStyles.muted}>{paste.preview}</span>
                  </td>
                  <td data-label={t`Password`}>{paste.hasPassword ? t`Encrypted` : t`None`}</td>
                  <td data-label={t`Views`}>{paste.maxViews > 0 ? `${paste.views} / ${paste.maxViews}` : t`${paste.views} (unlimited)`}</td>
                  <td data-label={t`Expires`}>{paste.expiresAt ? formatDateTime(paste.expiresAt, i18n.locale) : t`Never`}</td>
                  <td data-label={t`Created`}>{formatDateTime(paste.createdAt, i18n.locale)}</td>
                  <td data-label={t`Actions`}>
                    <RowActions
                      name={paste.slug}
                      openHref={`/paste/${encodeURIComponent(paste.slug)}`}
                      onQr={() => setQrFor(paste)}
                      onEdit={() => setEditing(paste.id)}
                      onDelete={() => setPending({ kind: 'one', paste })}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.data && list.data.total > ADMIN_PASTE_PAGE_SIZE && (
        <Pagination page={page} pageSize={ADMIN_PASTE_PAGE_SIZE} total={list.data.total} onPage={setPage} />
      )}

      <ConfirmDialog
        open={pending !== undefined}
        onOpenChange={(open) => !open && setPending(undefined)}
        title={confirmText.title}
        description={confirmText.description}
        confirmLabel={pending?.kind === 'expired' ? t`Clear` : t`Delete`}
        busy={busy}
        onConfirm={confirm}
      />
      {editing && (
        <PasteEditDialog
          id={editing}
          onClose={() => setEditing(undefined)}
          onSaved={() => {
            setEditing(undefined);
            toasts.success(t`Share updated`);
            list.reload();
          }}
        />
      )}
      <QrDialog url={qrFor && pasteShareUrl(qrFor.slug)} name={qrFor?.slug ?? ''} onClose={() => setQrFor(undefined)} />
    </section>
  );
}
