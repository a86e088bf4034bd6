import { useLingui } from '@lingui/react/macro';
import { KeyRound, Plus } from 'lucide-react';
import { useState } from 'react';
import type { ApiKey, CreatedApiKey } from '../../../../contract/api-keys';
import { Button } from '../../../components/Button';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import tableStyles from '../../../components/DataTable.module.css';
import { ModuleHeader } from '../../../components/ModuleHeader';
import { RowActions } from '../../../components/RowActions';
import { Notice } from '../../../components/Notice';
import { ResourceStatus } from '../../../components/ResourceStatus';
import { deleteApiKey, listApiKeys } from '../../../lib/api/api-keys';
import { backendBaseUrl } from '../../../lib/backend-url';
import { formatDateTime } from '../../../lib/format';
import { toasts } from '../../../lib/toast';
import { useResource } from '../../../lib/use-resource';
import { asRequestFailure } from '../../../../contract/envelope';
import { CreatedKeyDialog } from './CreatedKeyDialog';
import { KeyFormDialog } from './KeyFormDialog';

type Editing = { mode: 'create' } | { mode: 'edit'; key: ApiKey } | undefined;

export default function KeyManagement({ title }: { title: string }) {
  const { t, i18n } = useLingui();
  const keys = useResource(listApiKeys);
  const [editing, setEditing] = useState<Editing>();
  const [deleting, setDeleting] = useState<ApiKey>();
  const [deleteBusy, setDeleteBusy] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey>();

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
            {t`A key is shown in full only once, when it is created.`}{' '}
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
                    <code>{key.key_masked}</code>
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
                    />
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
          onCreated={(key) => {
            setEditing(undefined);
            keys.reload();
            setCreated(key);
          }}
          onUpdated={() => {
            setEditing(undefined);
            keys.reload();
            toasts.success(t`API key updated`);
          }}
        />
      )}

      <ConfirmDialog
        open={deleting !== undefined}
        onOpenChange={(open) => !open && setDeleting(undefined)}
        title={t`Delete API key?`}
        description={t`Whoever uses "${deleting?.name ?? ''}" loses access at once. This cannot be undone.`}
        confirmLabel={t`Delete`}
        busy={deleteBusy}
        onConfirm={confirmDelete}
      />

      <CreatedKeyDialog apiKey={created} onClose={() => setCreated(undefined)} />
    </section>
  );
}
