import { useLingui } from '@lingui/react/macro';
import { Download } from 'lucide-react';
import type { ApiKey } from '../../../../contract/api-keys';
import { Button } from '../../../components/Button';
import { Dialog, dialogStyles } from '../../../components/Dialog';
import { backendBaseUrl } from '../../../lib/backend-url';
import { downloadBlob, safeFilename } from '../../../lib/download';
import { shareXUploaders, type SxcuFile } from './sharex';

function save(uploader: SxcuFile, filename: string) {
  downloadBlob(new Blob([`${JSON.stringify(uploader, null, 2)}\n`], { type: 'application/json' }), filename);
}

/** "Use with ShareX": the key's custom uploaders, one `.sxcu` file per kind the key may upload. */
export function ShareXDialog({ apiKey, onClose }: { apiKey: ApiKey | undefined; onClose: () => void }) {
  const { t } = useLingui();
  const uploaders = apiKey ? shareXUploaders(apiKey, backendBaseUrl(), window.location.origin) : {};
  const name = apiKey?.name ?? '';
  return (
    <Dialog
      open={apiKey !== undefined}
      onOpenChange={(open) => !open && onClose()}
      title={t`Use with ShareX`}
      description={t`Open a downloaded file to add it to ShareX as a custom uploader (or import it under Destinations → Custom uploader settings). Each file holds the key: keep it as private as the key itself.`}
    >
      {!uploaders.files && !uploaders.text && <p>{t`This key has neither the text nor the file permission: give it one first.`}</p>}
      <div className={dialogStyles.actions}>
        {uploaders.files && (
          <Button variant="primary" onClick={() => uploaders.files && save(uploaders.files, safeFilename(`Clipstash files ${name}`, 'sxcu'))}>
            <Download size={16} aria-hidden />
            {t`Files and screenshots (.sxcu)`}
          </Button>
        )}
        {uploaders.text && (
          <Button variant="primary" onClick={() => uploaders.text && save(uploaders.text, safeFilename(`Clipstash text ${name}`, 'sxcu'))}>
            <Download size={16} aria-hidden />
            {t`Text (.sxcu)`}
          </Button>
        )}
        <Button onClick={onClose}>{t`Done`}</Button>
      </div>
    </Dialog>
  );
}
