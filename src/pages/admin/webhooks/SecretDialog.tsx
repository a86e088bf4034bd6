import { useLingui } from '@lingui/react/macro';
import { Copy } from 'lucide-react';
import type { WebhookWithSecret } from '../../../../contract/webhooks';
import { Button } from '../../../components/Button';
import { Dialog, dialogStyles } from '../../../components/Dialog';
import { copyText } from '../../../lib/clipboard';
import { toasts } from '../../../lib/toast';

/** The only time the signing secret is shown whole: after a creation or a new secret. */
export function SecretDialog({ webhook, onClose }: { webhook: WebhookWithSecret | undefined; onClose: () => void }) {
  const { t } = useLingui();
  const copy = async (secret: string) => {
    if (await copyText(secret)) toasts.success(t`Secret copied to the clipboard`);
    else toasts.error(t`Copy failed, please copy it by hand`);
  };
  return (
    <Dialog
      open={webhook !== undefined}
      onOpenChange={(open) => !open && onClose()}
      title={t`Signing secret`}
      description={t`Copy the secret into the receiver now: it will not be shown again. The receiver checks the X-Clipstash-Signature header with it.`}
    >
      {webhook && (
        <>
          <code className="secret-once" data-testid="webhook-secret">
            {webhook.secret}
          </code>
          <div className={dialogStyles.actions}>
            <Button variant="primary" onClick={() => copy(webhook.secret)}>
              <Copy size={16} aria-hidden />
              {t`Copy secret`}
            </Button>
          </div>
        </>
      )}
      <div className={dialogStyles.actions}>
        <Button onClick={onClose}>{t`Done`}</Button>
      </div>
    </Dialog>
  );
}
