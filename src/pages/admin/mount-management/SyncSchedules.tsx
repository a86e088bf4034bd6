import { useLingui } from '@lingui/react/macro';
import { Play, Plus, RefreshCcw, SearchCheck } from 'lucide-react';
import { useState } from 'react';
import { asRequestFailure } from '../../../../contract/envelope';
import type { SyncDryRun, SyncSchedule } from '../../../../contract/jobs';
import { Button } from '../../../components/Button';
import tableStyles from '../../../components/DataTable.module.css';
import { Dialog, dialogStyles } from '../../../components/Dialog';
import { Notice } from '../../../components/Notice';
import { RowActions } from '../../../components/RowActions';
import { deleteSyncSchedule, dryRunSyncSchedule, listSyncSchedules, runSyncSchedule } from '../../../lib/api/sync-schedules';
import { formatBytes } from '../../../lib/format';
import { toasts } from '../../../lib/toast';
import { DateCell } from '../management/DateCell';
import { ManagementTable, type Column } from '../management/ManagementTable';
import { useManagementList } from '../management/use-management-list';
import { SyncScheduleDialog } from './SyncScheduleDialog';
import styles from './SyncSchedules.module.css';

/** Scheduled syncs between mount paths: each run is a server job, seen in Tasks. */
export function SyncSchedules() {
  const { t, i18n } = useLingui();
  const list = useManagementList({ load: listSyncSchedules });
  const [dryRun, setDryRun] = useState<{ schedule: SyncSchedule; plan: SyncDryRun }>();
  const nameOf = (schedule: SyncSchedule) => `${schedule.source} → ${schedule.target}`;

  const runNow = (schedule: SyncSchedule) =>
    list.run(async () => {
      await runSyncSchedule(schedule.id);
      toasts.success(t`Sync of ${nameOf(schedule)} started: see Tasks`);
    });

  const preview = async (schedule: SyncSchedule) => {
    try {
      setDryRun({ schedule, plan: await dryRunSyncSchedule(schedule.id) });
    } catch (error) {
      toasts.error(asRequestFailure(error).message);
    }
  };

  const askDelete = (schedule: SyncSchedule) =>
    list.ask({
      title: t`Delete sync schedule?`,
      description: t`${nameOf(schedule)} no longer runs. Files already copied stay.`,
      confirmLabel: t`Delete`,
      run: async () => {
        await deleteSyncSchedule(schedule.id);
        toasts.success(t`Sync schedule deleted`);
      },
    });

  const columns: Column<SyncSchedule>[] = [
    {
      label: t`Source → target`,
      width: 'fill',
      cell: (schedule) => (
        <code title={nameOf(schedule)}>
          {schedule.source} → {schedule.target}
        </code>
      ),
    },
    { label: t`When (UTC)`, cell: (schedule) => <code>{schedule.cron}</code> },
    {
      label: t`Mode`,
      cell: (schedule) => <span className={tableStyles.badge}>{schedule.mode === 'mirror' ? t`Mirror` : t`New and changed`}</span>,
    },
    {
      label: t`Next run`,
      cell: (schedule) => (schedule.nextRunAt ? <DateCell iso={schedule.nextRunAt} /> : <span className={tableStyles.muted}>{t`Off`}</span>),
    },
    {
      label: t`Last run`,
      cell: (schedule) => (schedule.lastRunAt ? <DateCell iso={schedule.lastRunAt} /> : <span className={tableStyles.muted}>{t`Never`}</span>),
    },
  ];

  return (
    <section aria-labelledby="sync-schedules-title">
      <div className={styles.head}>
        <h3 id="sync-schedules-title">{t`Sync schedules`}</h3>
        <Button onClick={() => list.openEditor()}>
          <Plus size={17} aria-hidden />
          {t`Create sync schedule`}
        </Button>
      </div>
      <ManagementTable
        list={list}
        columns={columns}
        errorTitle={t`The sync schedules could not be loaded`}
        empty={
          <Notice level={3} icon={<RefreshCcw size={28} />} title={t`No sync schedules yet`}>
            {t`Copy a folder into another storage at set times, for example a nightly backup of /local into a bucket.`}
          </Notice>
        }
        rowData={(schedule) => ({ 'data-sync-source': schedule.source })}
        rowActions={(schedule) => (
          <RowActions
            name={nameOf(schedule)}
            editLabel={t`Edit sync schedule ${nameOf(schedule)}`}
            deleteLabel={t`Delete sync schedule ${nameOf(schedule)}`}
            onEdit={() => list.openEditor(schedule)}
            onDelete={() => askDelete(schedule)}
          >
            <Button size="small" aria-label={t`Dry run of ${nameOf(schedule)}`} onClick={() => void preview(schedule)}>
              <SearchCheck size={15} aria-hidden />
            </Button>
            <Button size="small" aria-label={t`Run ${nameOf(schedule)} now`} onClick={() => void runNow(schedule)}>
              <Play size={15} aria-hidden />
            </Button>
          </RowActions>
        )}
      />
      {list.editor && (
        <SyncScheduleDialog
          editing={list.editor.item}
          onClose={list.closeEditor}
          onSaved={(created) => list.editorSaved(created ? t`Sync schedule created` : t`Sync schedule updated`)}
        />
      )}
      {dryRun && (
        <Dialog open onOpenChange={(open) => !open && setDryRun(undefined)} title={t`What a run of ${nameOf(dryRun.schedule)} would do now`}>
          <p>
            {t`Copy ${dryRun.plan.copyCount.toLocaleString(i18n.locale)} files (${formatBytes(dryRun.plan.bytes)}), delete ${dryRun.plan.deleteCount.toLocaleString(i18n.locale)} files.`}
          </p>
          {dryRun.plan.copy.length > 0 && (
            <ul aria-label={t`Files to copy`} className={styles.list}>
              {dryRun.plan.copy.map((entry) => (
                <li key={entry.path}>
                  <code>{entry.path}</code> · {entry.why === 'new' ? t`new` : t`changed`} · {formatBytes(entry.size)}
                </li>
              ))}
            </ul>
          )}
          {dryRun.plan.delete.length > 0 && (
            <ul aria-label={t`Files to delete`} className={styles.list}>
              {dryRun.plan.delete.map((entry) => (
                <li key={entry.path}>
                  <code>{entry.path}</code>
                </li>
              ))}
            </ul>
          )}
          <div className={dialogStyles.actions}>
            <Button variant="primary" onClick={() => setDryRun(undefined)}>{t`Close`}</Button>
          </div>
        </Dialog>
      )}
    </section>
  );
}
