import { useLingui } from '@lingui/react/macro';
import { Pencil, RefreshCw, Search } from 'lucide-react';
import { useEffect, useRef } from 'react';
import type { IndexState, MountIndex } from '../../../../contract/search';
import { Button } from '../../../components/Button';
import tableStyles from '../../../components/DataTable.module.css';
import { Notice } from '../../../components/Notice';
import { listMountIndexes, rebuildMountIndex } from '../../../lib/api/search';
import { toasts } from '../../../lib/toast';
import { DateCell } from '../management/DateCell';
import { ManagementTable, type Column } from '../management/ManagementTable';
import { useManagementList } from '../management/use-management-list';
import { RescanDialog } from './RescanDialog';
import styles from './SyncSchedules.module.css';

/** How often the list is read again while an index is being built: its counts move. */
const BUILDING_POLL_MS = 2_000;

type IndexRow = MountIndex & { id: string };

const loadIndexes = async (): Promise<IndexRow[]> => (await listMountIndexes()).map((index) => ({ ...index, id: index.mountId }));

/**
 * The search index of each mount: its state, size and last build, how often it is rescanned, and a rebuild.
 * `mountsKey` changes when mounts are added, moved or removed: the list follows.
 */
export function MountIndexes({ mountsKey }: { mountsKey: string }) {
  const { t, i18n } = useLingui();
  const list = useManagementList({ load: loadIndexes });
  const { reload } = list.resource;

  const building = list.items.some((index) => index.state === 'building');
  useEffect(() => {
    if (!building) return;
    const timer = setInterval(reload, BUILDING_POLL_MS);
    return () => clearInterval(timer);
  }, [building, reload]);

  const shownFor = useRef(mountsKey);
  useEffect(() => {
    if (shownFor.current === mountsKey) return;
    shownFor.current = mountsKey;
    reload();
  }, [mountsKey, reload]);

  const stateText: Record<IndexState, string> = { none: t`Not built`, building: t`Building`, complete: t`Complete`, failed: t`Failed` };
  const count = (value: number) => value.toLocaleString(i18n.locale);

  const askRebuild = (index: IndexRow) =>
    list.ask({
      title: t`Rebuild the index of ${index.mountPath}?`,
      description: t`Every folder of the mount is read again. Until that ends, a search may miss some of its files.`,
      confirmLabel: t`Rebuild index`,
      run: async () => {
        await rebuildMountIndex(index.mountId);
        toasts.success(t`Rebuilding the index of ${index.mountPath}`);
      },
    });

  const columns: Column<IndexRow>[] = [
    { label: t`Mount path`, width: 'fill', cell: (index) => <code title={index.mountPath}>{index.mountPath}</code> },
    {
      label: t`State`,
      cell: (index) => {
        const pending = count(index.foldersPending);
        return (
          <span title={index.error ?? undefined}>
            <span className={`${tableStyles.badge} ${index.state === 'failed' ? tableStyles.gone : ''}`} data-index-state={index.state}>
              {stateText[index.state]}
            </span>
            {index.state === 'building' && <span className={tableStyles.muted}> {t`${pending} folders to go`}</span>}
            {index.state === 'failed' && index.error && <span className={tableStyles.danger}> {index.error}</span>}
          </span>
        );
      },
    },
    { label: t`Entries`, cell: (index) => count(index.entries) },
    {
      label: t`Built`,
      cell: (index) => (index.builtAt ? <DateCell iso={index.builtAt} /> : <span className={tableStyles.muted}>{t`Never`}</span>),
    },
    {
      label: t`Rescan`,
      cell: (index) => {
        const minutes = count(index.rescanMinutes);
        return index.rescanMinutes === 0 ? <span className={tableStyles.muted}>{t`Off`}</span> : t`Every ${minutes} min`;
      },
    },
  ];

  return (
    <section aria-labelledby="mount-indexes-title">
      <div className={styles.head}>
        <h3 id="mount-indexes-title">{t`Search indexes`}</h3>
      </div>
      <ManagementTable
        list={list}
        columns={columns}
        errorTitle={t`The search indexes could not be loaded`}
        empty={
          <Notice level={3} icon={<Search size={28} />} title={t`No indexes yet`}>
            {t`Each mount point gets an index of its file names, for the explorer's search.`}
          </Notice>
        }
        rowData={(index) => ({ 'data-index-mount': index.mountPath })}
        rowActions={(index) => (
          <div className={tableStyles.actions}>
            <Button size="small" aria-label={t`Change the rescan of ${index.mountPath}`} onClick={() => list.openEditor(index)}>
              <Pencil size={15} aria-hidden />
            </Button>
            <Button size="small" onClick={() => askRebuild(index)}>
              <RefreshCw size={15} aria-hidden />
              {t`Rebuild index`}
              <span className="visually-hidden"> {index.mountPath}</span>
            </Button>
          </div>
        )}
      />
      {list.editor?.item && (
        <RescanDialog
          index={list.editor.item}
          onClose={list.closeEditor}
          onSaved={(minutes) => {
            const path = list.editor?.item?.mountPath ?? '';
            list.editorSaved(minutes === 0 ? t`Rescan of ${path} turned off` : t`${path} is rescanned every ${minutes} minutes`);
          }}
        />
      )}
    </section>
  );
}
