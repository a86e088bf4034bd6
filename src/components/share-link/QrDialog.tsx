import { useLingui } from '@lingui/react/macro';
import { Dialog } from '../Dialog';
import { QrCode } from './QrCode';

/** A share's link as a large QR code, for a phone to scan off the screen. */
export function QrDialog({ url, name, onClose }: { url: string | undefined; name: string; onClose: () => void }) {
  const { t } = useLingui();
  return (
    <Dialog open={url !== undefined} onOpenChange={(open) => !open && onClose()} title={t`QR code`} description={url}>
      {url && <QrCode data={url} size={220} label={t`QR code of ${name}`} />}
    </Dialog>
  );
}
