import { useLingui } from '@lingui/react/macro';
import type { Webhook } from '../../../../contract/webhooks';
import { Button } from '../../../components/Button';
import tableStyles from '../../../components/DataTable.module.css';
import { Dialog, dialogStyles } from '../../../components/Dialog';
import { ResourceStatus } from '../../../components/ResourceStatus';
import { listDeliveries } from '../../../lib/api/webhooks';
import { useResource } from '../../../lib/use-resource';
import { DateCell } from '../management/DateCell';

/** A webhook's last deliveries: when, which event, the receiver's status (or why none came) and how long it took. */
export function DeliveryLogDialog({ webhook, onClose }: { webhook: Webhook; onClose: () => void }) {
  const { t } = useLingui();
  const log = useResource(() => listDeliveries(webhook.id).then((answer) => answer.items));
  const failureText: Record<string, string> = {
    network: t`No connection`,
    timeout: t`No answer in time`,
    refused: t`Address refused`,
    secret_unreadable: t`Secret unreadable: make a new one`,
  };
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={t`Delivery log: ${webhook.name}`}>
      <ResourceStatus resource={log} errorTitle={t`The delivery log could not be loaded`} />
      {log.data && log.data.length === 0 && <p className={tableStyles.muted}>{t`Nothing was sent yet.`}</p>}
      {log.data && log.data.length > 0 && (
        <div className={tableStyles.wrap}>
          <table className={tableStyles.table} data-testid="delivery-log">
            <thead>
              <tr>
                <th>{t`Time`}</th>
                <th>{t`Event`}</th>
                <th>{t`Result`}</th>
                <th>{t`Response time`}</th>
                <th>{t`Attempt`}</th>
              </tr>
            </thead>
            <tbody>
              {log.data.map((delivery) => (
                <tr key={delivery.id} data-event={delivery.event}>
                  <td>
                    <DateCell iso={delivery.deliveredAt} />
                  </td>
                  <td>
                    <code>{delivery.event}</code>
                  </td>
                  <td className={delivery.ok ? undefined : tableStyles.danger}>
                    {delivery.statusCode !== null ? `HTTP ${delivery.statusCode}` : (failureText[delivery.error ?? ''] ?? delivery.error)}
                  </td>
                  <td>{t`${delivery.durationMs} ms`}</td>
                  <td>{delivery.attempt}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className={dialogStyles.actions}>
        <Button onClick={log.reload}>{t`Refresh`}</Button>
      </div>
    </Dialog>
  );
}
