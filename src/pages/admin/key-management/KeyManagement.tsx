import { useLingui } from '@lingui/react/macro';
import { Copy, KeyRound, MonitorUp, Plus } from 'lucide-react';
import { useState } from 'react';
import type { ApiKey } from '../../../../contract/api-keys';
import { Button } from '../../../components/Button';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import tableStyles from '../../../components/DataTable.module.css';
import { Dialog, dialogStyles } from '../../../components/Dialog';
import { ModuleHeader } from '../../../components/ModuleHeader';
import { RowActions } from '../../../components/RowActions';
import { Notice } from '../../../components/Notice';
import { ResourceStatus } from '../../../components/ResourceStatus';
import { deleteApiKey, listApiKeys } from '../../../lib/api/api-keys';
import { backendBaseUrl } from '../../../lib/backend-url';
import { copyText } from '../../../lib/clipboard';
import { formatDateTime } from '../../../lib/format';
import { toasts } from '../../../lib/toast';
import { useResource } from '../../../lib/use-resource';
import { asRequestFailure } from '../../../../contract/envelope';
import { KeyFormDialog } from './KeyFormDialog';
import { ShareXDialog } from './ShareXDialog';
import styles from './KeyManagement.module.css';

type Editing = { mode: 'create' } | { mode: 'edit'; key: ApiKey } | undefined;

export default function KeyManagement({ title }: { title: string }) {
  const { t, i18n } = useLingui();
  const keys = useResource(listApiKeys);
  const [editing, setEditing] = useState<Editing>();
  const [deleting, setDeleting] = useState<ApiKey>();
  const [deleteBusy, setDeleteBusy] = useState(false);
  const [created, setCreated] = useState<ApiKey>();
  const [shareX, setShareX] = useState<ApiKey>();

  const copy = async (key: string) => {
    if (await copyText(key)) toasts.success(t`Key copied to the clipboard`);
    else toasts.error(t`Copy failed, please copy it by hand`);
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    setDeleteBusy(true);
    try {
      await deleteApiKey(deleting.id);
      toasts.success(t`API key deleted`);
      setDeleting(undefined);
      keys.reload();
    } catch (error) {
      toasts.error(asRequestFailure(error).message);
    } finally {
      setDeleteBusy(false);
    }
  };

  const isExpired = (key: ApiKey) => key.expires_at !== null && new Date(key.expires_at).getTime() <= Date.now();

  return (
    <section>
      <ModuleHeader
        title={title}
        description={
          <>
            {t`API keys let scripts and other people create shares without the admin password.`}{' '}
            <a href={`${backendBaseUrl()}/api/docs`} target="_blank" rel="noreferrer">
              {t`API reference`}
            </a>
          </>
        }
        actions={
          <Button variant="primary" onClick={() => setEditing({ mode: 'create' })}>
            <Plus size={17} aria-hidden />
            {t`Create key`}
          </Button>
        }
      />

      <ResourceStatus resource={keys} errorTitle={t`The keys could not be loaded`} />
      {keys.data && keys.data.length === 0 && (
        <Notice
          level={2}
          icon={<KeyRound size={32} />}
          title={t`No API keys yet`}
          actions={
            <Button variant="primary" onClick={() => setEditing({ mode: 'create' })}>
              {t`Create the first key`}
            </Button>
          }
        >
          {t`Create a key with text, file or mount permission and hand it to whoever should upload.`}
        </Notice>
      )}
      {keys.data && keys.data.length > 0 && (
        <div className={tableStyles.wrap}>
          <table className={tableStyles.table}>
            <thead>
              <tr>
                <th scope="col">{t`Name`}</th>
                <th scope="col">{t`Key`}</th>
                <th scope="col">{t`Permissions`}</th>
                <th scope="col">{t`Base path`}</th>
                <th scope="col">{t`Expires`}</th>
                <th scope="col">{t`Last used`}</th>
                <th scope="col">{t`Created`}</th>
                <th scope="col">
                  <span className="visually-hidden">{t`Actions`}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((key) => (
                <tr key={key.id} data-key-name={key.name}>
                  <td data-label={t`Name`}>{key.name}</td>
                  <td data-label={t`Key`}>
                    <span className={styles.key}>
                      <code>{key.key_masked}</code>
                      <Button size="small" variant="ghost" aria-label={t`Copy key ${key.name}`} onClick={() => copy(key.key)}>
                        <Copy size={15} aria-hidden />
                      </Button>
                    </span>
                  </td>
                  <td data-label={t`Permissions`}>
                    {key.text_permission && <span className={tableStyles.badge}>{t`Text`}</span>}
                    {key.file_permission && <span className={tableStyles.badge}>{t`Files`}</span>}
                    {key.mount_permission && <span className={tableStyles.badge}>{t`Mounts`}</span>}
                    {!key.text_permission && !key.file_permission && !key.mount_permission && (
                      <span className={tableStyles.muted}>{t`None`}</span>
                    )}
                  </td>
                  <td data-label={t`Base path`}>
                    <code>{key.basic_path}</code>
                  </td>
                  <td data-label={t`Expires`}>
                    {key.expires_at === null ? (
                      <span className={tableStyles.muted}>{t`Never`}</span>
                    ) : isExpired(key) ? (
                      <span className={tableStyles.danger}>{t`Expired`}</span>
                    ) : (
                      formatDateTime(key.expires_at, i18n.locale)
                    )}
                  </td>
                  <td data-label={t`Last used`}>
                    {key.last_used ? formatDateTime(key.last_used, i18n.locale) : <span className={tableStyles.muted}>{t`Never used`}</span>}
                  </td>
                  <td data-label={t`Created`}>{formatDateTime(key.created_at, i18n.locale)}</td>
                  <td data-label={t`Actions`}>
                    <RowActions
                      name={key.name}
                      editLabel={t`Edit key ${key.name}`}
                      deleteLabel={t`Delete key ${key.name}`}
                      onEdit={() => setEditing({ mode: 'edit', key })}
                      onDelete={() => setDeleting(key)}
                    >
                      <Button size="small" aria-label={t`Use ${key.name} with ShareX`} title={t`Use with ShareX`} onClick={() => setShareX(key)}>
                        <MonitorUp size={15} aria-hidden />
                      </Button>
                    </RowActions>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {editing && (
        <KeyFormDialog
          editing={editing.mode === 'edit' ? editing.key : undefined}
          onClose={() => setEditing(undefined)}
          onSaved={(saved, wasCreated) => {
            setEditing(undefined);
            keys.reload();
            if (wasCreated) setCreated(saved);
            else toasts.success(t`API key updated`);
          }}
        />
      )}

      <ShareXDialog apiKey={shareX} onClose={() => setShareX(undefined)} />

      <ConfirmDialog
        open={deleting !== undefined}
        onOpenChange={(open) => !open && setDeleting(undefined)}
        title={t`Delete API key?`}
        description={t`Whoever uses "${deleting?.name ?? ''}" loses access at once. This cannot be undone.`}
        confirmLabel={t`Delete`}
        busy={deleteBusy}
        onConfirm={confirmDelete}
      />

      <Dialog
        open={created !== undefined}
        onOpenChange={(open) => !open && setCreated(undefined)}
        title={t`API key created`}
        description={t`Copy the key now and hand it over safely. Admins can copy it again from this list.`}
      >
        <code className={styles.createdKey} data-testid="created-key">
          {created?.key}
        </code>
        <div className={dialogStyles.actions}>
          <Button variant="primary" onClick={() => created && copy(created.key)}>
            <Copy size={16} aria-hidden />
            {t`Copy key`}
          </Button>
          <Button onClick={() => setCreated(undefined)}>{t`Done`}</Button>
        </div>
      </Dialog>
    </section>
  );
}
