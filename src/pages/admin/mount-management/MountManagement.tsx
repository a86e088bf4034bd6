import { useLingui } from '@lingui/react/macro';
import { Network, Plus } from 'lucide-react';
import { useState } from 'react';
import type { Mount } from '../../../../contract/mounts';
import { Button } from '../../../components/Button';
import tableStyles from '../../../components/DataTable.module.css';
import { ModuleHeader } from '../../../components/ModuleHeader';
import { Notice } from '../../../components/Notice';
import { RowActions } from '../../../components/RowActions';
import { deleteMount, listMounts, updateMount } from '../../../lib/api/mounts';
import { listStorageConfigs } from '../../../lib/api/storage-configs';
import { toasts } from '../../../lib/toast';
import { useResource } from '../../../lib/use-resource';
import { useStorageName } from '../../../lib/use-storage-name';
import { DateCell } from '../management/DateCell';
import { ManagementTable, type Column } from '../management/ManagementTable';
import { useManagementList } from '../management/use-management-list';
import { MountFormDialog } from './MountFormDialog';
import { MountIndexes } from './MountIndexes';
import { SyncSchedules } from './SyncSchedules';
import { WebdavAddress } from './WebdavAddress';

export default function MountManagement({ title }: { title: string }) {
  const { t } = useLingui();
  const list = useManagementList({ load: listMounts });
  const configs = useResource(listStorageConfigs);
  const storageName = useStorageName();
  const [toggling, setToggling] = useState<string>();

  const configName = (mount: Mount) => {
    const config = configs.data?.find((candidate) => candidate.id === mount.storage_config_id);
    return config ? storageName(config.name, config.provider_type) : (mount.storage_config_name ?? mount.storage_config_id);
  };
  const creatorName = (createdBy: string) => (createdBy === 'system' ? t`System` : createdBy === 'admin' ? t`Admin` : t`API key`);

  const toggle = async (mount: Mount) => {
    setToggling(mount.id);
    await list.run(async () => {
      await updateMount(mount.id, { is_active: !mount.is_active });
      toasts.success(mount.is_active ? t`Mount point ${mount.name} deactivated` : t`Mount point ${mount.name} activated`);
    });
    setToggling(undefined);
  };

  const askDelete = (mount: Mount) =>
    list.ask({
      title: t`Delete mount point?`,
      description: t`"${mount.name}" disappears from the explorer and WebDAV. The files in its storage stay.`,
      confirmLabel: t`Delete`,
      run: async () => {
        await deleteMount(mount.id);
        toasts.success(t`Mount point deleted`);
      },
    });

  const create = () => list.openEditor();

  const columns: Column<Mount>[] = [
    {
      label: t`Name`,
      width: 'fill',
      cell: (mount) => (
        <span title={mount.remark ? `${mount.name}: ${mount.remark}` : mount.name}>
          {mount.name}
          {mount.remark && <span className={tableStyles.muted}> · {mount.remark}</span>}
        </span>
      ),
    },
    { label: t`Mount path`, width: 'clip', cell: (mount) => <code title={mount.mount_path}>{mount.mount_path}</code> },
    {
      label: t`Storage`,
      cell: (mount) => (
        <>
          {configName(mount)} <span className={tableStyles.badge}>{mount.storage_type}</span>
        </>
      ),
    },
    {
      label: t`Status`,
      cell: (mount) => (
        <>
          <span className={mount.is_active ? tableStyles.badge : tableStyles.muted}>{mount.is_active ? t`Active` : t`Inactive`}</span>{' '}
          {/* The visible verb says what a click does; the hidden name says to which mount. */}
          <Button size="small" disabled={toggling === mount.id} onClick={() => toggle(mount)}>
            {mount.is_active ? t`Deactivate` : t`Activate`}
            <span className="visually-hidden"> {mount.name}</span>
          </Button>
        </>
      ),
    },
    { label: t`Sort order`, cell: (mount) => mount.sort_order },
    {
      label: t`Cache TTL`,
      cell: (mount) => (mount.cache_ttl === 0 ? <span className={tableStyles.muted}>{t`No cache`}</span> : t`${mount.cache_ttl} s`),
    },
    { label: t`Created by`, cell: (mount) => creatorName(mount.created_by) },
    { label: t`Updated`, cell: (mount) => <DateCell iso={mount.updated_at} /> },
  ];

  return (
    <section>
      <ModuleHeader
        title={title}
        description={t`Mount points show storage in the mount explorer and over WebDAV, each at its own path.`}
        actions={
          <Button variant="primary" onClick={create} disabled={!configs.data}>
            <Plus size={17} aria-hidden />
            {t`Create mount point`}
          </Button>
        }
      />
      <WebdavAddress />
      <ManagementTable
        list={list}
        columns={columns}
        errorTitle={t`The mount points could not be loaded`}
        empty={
          <Notice
            level={2}
            icon={<Network size={32} />}
            title={t`No mount points yet`}
            actions={
              <Button variant="primary" onClick={create} disabled={!configs.data}>
                {t`Create the first mount point`}
              </Button>
            }
          >
            {t`Mount a storage configuration at a path to browse it in the mount explorer.`}
          </Notice>
        }
        rowData={(mount) => ({ 'data-mount-path': mount.mount_path })}
        rowActions={(mount) => (
          <RowActions
            name={mount.name}
            editLabel={t`Edit mount point ${mount.name}`}
            deleteLabel={t`Delete mount point ${mount.name}`}
            onEdit={() => list.openEditor(mount)}
            onDelete={() => askDelete(mount)}
          />
        )}
      />

      <MountIndexes mountsKey={list.items.map((mount) => `${mount.id}:${mount.mount_path}`).join()} />
      <SyncSchedules />

      {list.editor && configs.data && (
        <MountFormDialog
          editing={list.editor.item}
          configs={configs.data}
          onClose={list.closeEditor}
          onSaved={(_saved, created) => list.editorSaved(created ? t`Mount point created` : t`Mount point updated`)}
        />
      )}
    </section>
  );
}
