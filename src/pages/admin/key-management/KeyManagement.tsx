import { useLingui } from '@lingui/react/macro';
import { KeyRound, Plus } from 'lucide-react';
import { useState } from 'react';
import type { ApiKey, CreatedApiKey } from '../../../../contract/api-keys';
import { Button } from '../../../components/Button';
import tableStyles from '../../../components/DataTable.module.css';
import { ModuleHeader } from '../../../components/ModuleHeader';
import { RowActions } from '../../../components/RowActions';
import { Notice } from '../../../components/Notice';
import { deleteApiKey, listApiKeys } from '../../../lib/api/api-keys';
import { backendBaseUrl } from '../../../lib/backend-url';
import { toasts } from '../../../lib/toast';
import { DateCell } from '../management/DateCell';
import { ManagementTable, type Column } from '../management/ManagementTable';
import { useManagementList } from '../management/use-management-list';
import { CreatedKeyDialog } from './CreatedKeyDialog';
import { KeyFormDialog } from './KeyFormDialog';

export default function KeyManagement({ title }: { title: string }) {
  const { t } = useLingui();
  const list = useManagementList({ load: listApiKeys });
  const [created, setCreated] = useState<CreatedApiKey>();

  const askDelete = (key: ApiKey) =>
    list.ask({
      title: t`Delete API key?`,
      description: t`Whoever uses "${key.name}" loses access at once. This cannot be undone.`,
      confirmLabel: t`Delete`,
      run: async () => {
        await deleteApiKey(key.id);
        toasts.success(t`API key deleted`);
      },
    });

  const isExpired = (key: ApiKey) => key.expires_at !== null && new Date(key.expires_at).getTime() <= Date.now();

  const columns: Column<ApiKey>[] = [
    { label: t`Name`, width: 'fill', cell: (key) => <span title={key.name}>{key.name}</span> },
    { label: t`Key`, cell: (key) => <code>{key.key_masked}</code> },
    {
      label: t`Permissions`,
      cell: (key) => (
        <>
          {key.text_permission && <span className={tableStyles.badge}>{t`Text`}</span>}
          {key.file_permission && <span className={tableStyles.badge}>{t`Files`}</span>}
          {key.mount_permission && <span className={tableStyles.badge}>{t`Mounts`}</span>}
          {key.expense_permission && <span className={tableStyles.badge}>{t`Expenses`}</span>}
          {!key.text_permission && !key.file_permission && !key.mount_permission && !key.expense_permission && (
            <span className={tableStyles.muted}>{t`None`}</span>
          )}
        </>
      ),
    },
    { label: t`Base path`, width: 'clip', cell: (key) => <code title={key.basic_path}>{key.basic_path}</code> },
    {
      label: t`Expires`,
      cell: (key) =>
        key.expires_at === null ? (
          <span className={tableStyles.muted}>{t`Never`}</span>
        ) : isExpired(key) ? (
          <span className={tableStyles.danger}>{t`Expired`}</span>
        ) : (
          <DateCell iso={key.expires_at} />
        ),
    },
    {
      label: t`Last used`,
      cell: (key) => (key.last_used ? <DateCell iso={key.last_used} /> : <span className={tableStyles.muted}>{t`Never used`}</span>),
    },
    { label: t`Created`, cell: (key) => <DateCell iso={key.created_at} /> },
  ];

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
          <Button variant="primary" onClick={() => list.openEditor()}>
            <Plus size={17} aria-hidden />
            {t`Create key`}
          </Button>
        }
      />

      <ManagementTable
        list={list}
        columns={columns}
        errorTitle={t`The keys could not be loaded`}
        empty={
          <Notice
            level={2}
            icon={<KeyRound size={32} />}
            title={t`No API keys yet`}
            actions={
              <Button variant="primary" onClick={() => list.openEditor()}>
                {t`Create the first key`}
              </Button>
            }
          >
            {t`Create a key with text, file or mount permission and hand it to whoever should upload.`}
          </Notice>
        }
        rowData={(key) => ({ 'data-key-name': key.name })}
        rowActions={(key) => (
          <RowActions
            name={key.name}
            editLabel={t`Edit key ${key.name}`}
            deleteLabel={t`Delete key ${key.name}`}
            onEdit={() => list.openEditor(key)}
            onDelete={() => askDelete(key)}
          />
        )}
      />

      {list.editor && (
        <KeyFormDialog
          editing={list.editor.item}
          onClose={list.closeEditor}
          onCreated={(key) => {
            list.editorSaved();
            setCreated(key);
          }}
          onUpdated={() => list.editorSaved(t`API key updated`)}
        />
      )}

      <CreatedKeyDialog apiKey={created} onClose={() => setCreated(undefined)} />
    </section>
  );
}
