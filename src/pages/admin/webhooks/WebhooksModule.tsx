import { useLingui } from '@lingui/react/macro';
import { ListChecks, Plus, Send, Webhook as WebhookIcon } from 'lucide-react';
import { useState } from 'react';
import type { Webhook, WebhookWithSecret } from '../../../../contract/webhooks';
import { Button } from '../../../components/Button';
import tableStyles from '../../../components/DataTable.module.css';
import { ModuleHeader } from '../../../components/ModuleHeader';
import { Notice } from '../../../components/Notice';
import { RowActions } from '../../../components/RowActions';
import { deleteWebhook, listWebhooks, sendTestEvent, updateWebhook } from '../../../lib/api/webhooks';
import { toasts } from '../../../lib/toast';
import { DateCell } from '../management/DateCell';
import { ManagementTable, type Column } from '../management/ManagementTable';
import { useManagementList } from '../management/use-management-list';
import { DeliveryLogDialog } from './DeliveryLogDialog';
import { FORMAT_LABELS } from './event-labels';
import { SecretDialog } from './SecretDialog';
import { WebhookFormDialog } from './WebhookFormDialog';
import styles from './Webhooks.module.css';

const hasSecret = (webhook: Webhook | WebhookWithSecret): webhook is WebhookWithSecret => 'secret' in webhook;

export default function WebhooksModule({ title }: { title: string }) {
  const { t, i18n } = useLingui();
  const list = useManagementList({ load: () => listWebhooks().then((answer) => answer.items) });
  const [secretShown, setSecretShown] = useState<WebhookWithSecret>();
  const [logOf, setLogOf] = useState<Webhook>();

  const askDelete = (webhook: Webhook) =>
    list.ask({
      title: t`Delete webhook?`,
      description: t`"${webhook.name}" gets no more events, and the ones still waiting are dropped.`,
      confirmLabel: t`Delete`,
      run: async () => {
        await deleteWebhook(webhook.id);
        toasts.success(t`Webhook deleted`);
      },
    });

  const test = (webhook: Webhook) =>
    list.run(async () => {
      const delivery = await sendTestEvent(webhook.id);
      if (delivery.ok) toasts.success(t`Test event delivered (HTTP ${delivery.statusCode ?? ''}, ${delivery.durationMs} ms)`);
      else toasts.error(t`The test event was not accepted: see the delivery log`);
    });

  const turnOn = (webhook: Webhook) =>
    list.run(async () => {
      await updateWebhook(webhook.id, { enabled: true });
      toasts.success(t`Webhook turned on again`);
    });

  const disabled = list.items.filter((webhook) => webhook.disabledReason === 'failures');

  const columns: Column<Webhook>[] = [
    { label: t`Name`, width: 'fill', cell: (webhook) => <span title={webhook.name}>{webhook.name}</span> },
    { label: t`URL`, width: 'clip', cell: (webhook) => <code title={webhook.url}>{webhook.url}</code> },
    { label: t`Format`, cell: (webhook) => i18n._(FORMAT_LABELS[webhook.format]) },
    { label: t`Events`, cell: (webhook) => <span title={webhook.events.join(', ')}>{webhook.events.length}</span> },
    {
      label: t`State`,
      cell: (webhook) =>
        webhook.enabled ? (
          <span className={tableStyles.badge}>{t`On`}</span>
        ) : webhook.disabledReason === 'failures' ? (
          <span className={tableStyles.danger}>{t`Turned off after failures`}</span>
        ) : (
          <span className={tableStyles.muted}>{t`Off`}</span>
        ),
    },
    { label: t`Waiting`, cell: (webhook) => webhook.pending },
    { label: t`Secret`, cell: (webhook) => <code>{webhook.secretHint}</code> },
    { label: t`Created`, cell: (webhook) => <DateCell iso={webhook.createdAt} /> },
  ];

  return (
    <section>
      <ModuleHeader
        title={title}
        description={t`Webhooks tell other tools (chat, automation, your own scripts) what happens here: each event is a signed POST, retried for a day when the receiver is down.`}
        actions={
          <Button variant="primary" onClick={() => list.openEditor()}>
            <Plus size={17} aria-hidden />
            {t`Create webhook`}
          </Button>
        }
      />

      {disabled.length > 0 && (
        <div className={styles.notices}>
          {disabled.map((webhook) => (
            <Notice
              key={webhook.id}
              level={2}
              role="alert"
              title={t`"${webhook.name}" was turned off`}
              actions={
                <>
                  <Button onClick={() => setLogOf(webhook)}>{t`Delivery log`}</Button>
                  <Button variant="primary" onClick={() => turnOn(webhook)}>
                    {t`Turn on again`}
                  </Button>
                </>
              }
            >
              {t`Its receiver failed ${webhook.failureStreak} times in a row. ${webhook.pending} events wait for it; they are sent once it is on again.`}
            </Notice>
          ))}
        </div>
      )}

      <ManagementTable
        list={list}
        columns={columns}
        errorTitle={t`The webhooks could not be loaded`}
        empty={
          <Notice
            level={2}
            icon={<WebhookIcon size={32} />}
            title={t`No webhooks yet`}
            actions={
              <Button variant="primary" onClick={() => list.openEditor()}>
                {t`Create the first webhook`}
              </Button>
            }
          >
            {t`Post to Discord, Slack, ntfy or any URL when a paste or file is shared, opened or expires, a file request receives a file, or an expense claim moves.`}
          </Notice>
        }
        rowData={(webhook) => ({ 'data-webhook-name': webhook.name })}
        rowActions={(webhook) => (
          <RowActions
            name={webhook.name}
            editLabel={t`Edit webhook ${webhook.name}`}
            deleteLabel={t`Delete webhook ${webhook.name}`}
            onEdit={() => list.openEditor(webhook)}
            onDelete={() => askDelete(webhook)}
          >
            <Button size="small" aria-label={t`Send a test event to ${webhook.name}`} onClick={() => void test(webhook)}>
              <Send size={15} aria-hidden />
            </Button>
            <Button size="small" aria-label={t`Delivery log of ${webhook.name}`} onClick={() => setLogOf(webhook)}>
              <ListChecks size={15} aria-hidden />
            </Button>
          </RowActions>
        )}
      />

      {list.editor && (
        <WebhookFormDialog
          editing={list.editor.item}
          onClose={list.closeEditor}
          onSaved={(webhook) => {
            list.editorSaved(list.editor?.item ? t`Webhook updated` : undefined);
            if (hasSecret(webhook)) setSecretShown(webhook);
          }}
        />
      )}
      {logOf && <DeliveryLogDialog webhook={logOf} onClose={() => setLogOf(undefined)} />}
      <SecretDialog webhook={secretShown} onClose={() => setSecretShown(undefined)} />
    </section>
  );
}
