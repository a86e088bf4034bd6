import { useLingui } from '@lingui/react/macro';
import { Network, Plus } from 'lucide-react';
import { useState } from 'react';
import { asRequestFailure } from '../../../../contract/envelope';
import type { Mount } from '../../../../contract/mounts';
import { Button } from '../../../components/Button';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import tableStyles from '../../../components/DataTable.module.css';
import { ModuleHeader } from '../../../components/ModuleHeader';
import { Notice } from '../../../components/Notice';
import { ResourceStatus } from '../../../components/ResourceStatus';
import { RowActions } from '../../../components/RowActions';
import { deleteMount, listMounts, updateMount } from '../../../lib/api/mounts';
import { listStorageConfigs } from '../../../lib/api/storage-configs';
import { formatDateTime } from '../../../lib/format';
import { toasts } from '../../../lib/toast';
import { useResource } from '../../../lib/use-resource';
import { useStorageName } from '../../../lib/use-storage-name';
import { MountFormDialog } from './MountFormDialog';
import { WebdavAddress } from './WebdavAddress';

type Editing = { mode: 'create' } | { mode: 'edit'; mount: Mount } | undefined;

export default function MountManagement({ title }: { title: string }) {
  const { t, i18n } = useLingui();
  const mounts = useResource(listMounts);
  const configs = useResource(listStorageConfigs);
  const storageName = useStorageName();
  const [editing, setEditing] = useState<Editing>();
  const [deleting, setDeleting] = useState<Mount>();
  const [busy, setBusy] = useState<string>();

  const configName = (mount: Mount) => {
    const config = configs.data?.find((candidate) => candidate.id === mount.storage_config_id);
    return config ? storageName(config.name, config.provider_type) : (mount.storage_config_name ?? mount.storage_config_id);
  };
  const creatorName = (createdBy: string) => (createdBy === 'system' ? t`System` : createdBy === 'admin' ? t`Admin` : t`API key`);

  const toggle = async (mount: Mount) => {
    setBusy(mount.id);
    try {
      await updateMount(mount.id, { is_active: !mount.is_active });
      toasts.success(mount.is_active ? t`Mount point ${mount.name} deactivated` : t`Mount point ${mount.name} activated`);
      mounts.reload();
    } catch (error) {
      toasts.error(asRequestFailure(error).message);
    } finally {
      setBusy(undefined);
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    setBusy(deleting.id);
    try {
      await deleteMount(deleting.id);
      toasts.success(t`Mount point deleted`);
      setDeleting(undefined);
      mounts.reload();
    } catch (error) {
      toasts.error(asRequestFailure(error).message);
    } finally {
      setBusy(undefined);
    }
  };

  const create = () => setEditing({ mode: 'create' });

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
      <ResourceStatus resource={mounts} errorTitle={t`The mount points could not be loaded`} />
      {mounts.data && mounts.data.length === 0 && (
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
      )}
      {mounts.data && mounts.data.length > 0 && (
        <div className={tableStyles.wrap}>
          <table className={tableStyles.table}>
            <thead>
              <tr>
                <th scope="col">{t`Name`}</th>
                <th scope="col">{t`Mount path`}</th>
                <th scope="col">{t`Storage`}</th>
                <th scope="col">{t`Status`}</th>
                <th scope="col">{t`Sort order`}</th>
                <th scope="col">{t`Cache TTL`}</th>
                <th scope="col">{t`Created by`}</th>
                <th scope="col">{t`Updated`}</th>
                <th scope="col">
                  <span className="visually-hidden">{t`Actions`}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {mounts.data.map((mount) => (
                <tr key={mount.id} data-mount-path={mount.mount_path}>
                  <td data-label={t`Name`}>
                    {mount.name}
                    {mount.remark && <div className={tableStyles.muted}>{mount.remark}</div>}
                  </td>
                  <td data-label={t`Mount path`}>
                    <code>{mount.mount_path}</code>
                  </td>
                  <td data-label={t`Storage`}>
                    {configName(mount)} <span className={tableStyles.badge}>{mount.storage_type}</span>
                  </td>
                  <td data-label={t`Status`}>
                    <span className={mount.is_active ? tableStyles.badge : tableStyles.muted}>
                      {mount.is_active ? t`Active` : t`Inactive`}
                    </span>{' '}
                    {/* The visible verb says what a click does; the hidden name says to which mount. */}
                    <Button size="small" disabled={busy === mount.id} onClick={() => toggle(mount)}>
                      {mount.is_active ? t`Deactivate` : t`Activate`}
                      <span className="visually-hidden"> {mount.name}</span>
                    </Button>
                  </td>
                  <td data-label={t`Sort order`}>{mount.sort_order}</td>
                  <td data-label={t`Cache TTL`}>{mount.cache_ttl === 0 ? <span className={tableStyles.muted}>{t`No cache`}</span> : t`${mount.cache_ttl} s`}</td>
                  <td data-label={t`Created by`}>{creatorName(mount.created_by)}</td>
                  <td data-label={t`Updated`}>{formatDateTime(mount.updated_at, i18n.locale)}</td>
                  <td data-label={t`Actions`}>
                    <RowActions
                      name={mount.name}
                      editLabel={t`Edit mount point ${mount.name}`}
                      deleteLabel={t`Delete mount point ${mount.name}`}
                      onEdit={() => setEditing({ mode: 'edit', mount })}
                      onDelete={() => setDeleting(mount)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {editing && configs.data && (
        <MountFormDialog
          editing={editing.mode === 'edit' ? editing.mount : undefined}
          configs={configs.data}
          onClose={() => setEditing(undefined)}
          onSaved={(_saved, created) => {
            setEditing(undefined);
            mounts.reload();
            toasts.success(created ? t`Mount point created` : t`Mount point updated`);
          }}
        />
      )}

      <ConfirmDialog
        open={deleting !== undefined}
        onOpenChange={(open) => !open && setDeleting(undefined)}
        title={t`Delete mount point?`}
        description={t`"${deleting?.name ?? ''}" disappears from the explorer and WebDAV. The files in its storage stay.`}
        confirmLabel={t`Delete`}
        busy={deleting !== undefined && busy === deleting.id}
        onConfirm={confirmDelete}
      />
    </section>
  );
}
