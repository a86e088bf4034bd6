import { useLingui } from '@lingui/react/macro';
import { Copy } from 'lucide-react';
import type { CreatedApiKey } from '../../../../contract/api-keys';
import { Button } from '../../../components/Button';
import { Dialog, dialogStyles } from '../../../components/Dialog';
import { copyText } from '../../../lib/clipboard';
import { toasts } from '../../../lib/toast';
import { ShareXDownloads } from './ShareXDownloads';

/**
 * The answer to a creation: the only time the whole key is shown (the server keeps only its hash and first
 * characters), with its copy button and, for a key that uploads, its ShareX uploaders.
 */
export function CreatedKeyDialog({ apiKey, onClose }: { apiKey: CreatedApiKey | undefined; onClose: () => void }) {
  const { t } = useLingui();
  const copy = async (key: string) => {
    if (await copyText(key)) toasts.success(t`Key copied to the clipboard`);
    else toasts.error(t`Copy failed, please copy it by hand`);
  };
  return (
    <Dialog
      open={apiKey !== undefined}
      onOpenChange={(open) => !open && onClose()}
      title={t`API key created`}
      description={t`Copy the key now: it will not be shown again. Clipstash keeps only its first characters, so a lost key cannot be recovered: delete it and create a new one.`}
    >
      {apiKey && (
        <>
          <code className="secret-once" data-testid="created-key">
            {apiKey.key}
          </code>
          <div className={dialogStyles.actions}>
            <Button variant="primary" onClick={() => copy(apiKey.key)}>
              <Copy size={16} aria-hidden />
              {t`Copy key`}
            </Button>
          </div>
          <ShareXDownloads apiKey={apiKey} />
        </>
      )}
      <div className={dialogStyles.actions}>
        <Button onClick={onClose}>{t`Done`}</Button>
      </div>
    </Dialog>
  );
}
