import { useLingui } from '@lingui/react/macro';
import { Download } from 'lucide-react';
import { useId } from 'react';
import type { CreatedApiKey } from '../../../../contract/api-keys';
import { Button } from '../../../components/Button';
import { dialogStyles } from '../../../components/Dialog';
import { backendBaseUrl } from '../../../lib/backend-url';
import { downloadBlob, safeFilename } from '../../../lib/download';
import { shareXUploaders, type SxcuFile } from './sharex';
import styles from './KeyManagement.module.css';

function save(uploader: SxcuFile, filename: string) {
  downloadBlob(new Blob([`${JSON.stringify(uploader, null, 2)}\n`], { type: 'application/json' }), filename);
}

/**
 * "Use with ShareX": the new key's custom uploaders, one `.sxcu` file per kind the key may upload. Offered only
 * where the whole key is known, in the answer to its creation; nothing for a key that uploads neither kind.
 */
export function ShareXDownloads({ apiKey }: { apiKey: CreatedApiKey }) {
  const { t } = useLingui();
  const headingId = useId();
  const uploaders = shareXUploaders(apiKey, backendBaseUrl(), window.location.origin);
  if (!uploaders.files && !uploaders.text) return null;
  return (
    <section className={styles.shareX} aria-labelledby={headingId}>
      <h3 id={headingId}>{t`Use with ShareX`}</h3>
      <p>
        {t`Open a downloaded file to add it to ShareX as a custom uploader (or import it under Destinations → Custom uploader settings). Each file holds the key: keep it as private as the key itself.`}
      </p>
      <div className={dialogStyles.actions}>
        {uploaders.files && (
          <Button onClick={() => uploaders.files && save(uploaders.files, safeFilename(`Clipstash files ${apiKey.name}`, 'sxcu'))}>
            <Download size={16} aria-hidden />
            {t`Files and screenshots (.sxcu)`}
          </Button>
        )}
        {uploaders.text && (
          <Button onClick={() => uploaders.text && save(uploaders.text, safeFilename(`Clipstash text ${apiKey.name}`, 'sxcu'))}>
            <Download size={16} aria-hidden />
            {t`Text (.sxcu)`}
          </Button>
        )}
      </div>
    </section>
  );
}
