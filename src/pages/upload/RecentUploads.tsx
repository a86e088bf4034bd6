import { useLingui } from '@lingui/react/macro';
import { QrCode as QrIcon } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/Button';
import { QrCode } from '../../components/share-link/QrCode';
import { fileShareUrl } from '../../lib/api/files';
import { formatBytes, formatDateTime } from '../../lib/format';
import type { RecentUpload } from '../../lib/recent-uploads';
import taskStyles from '../../components/task-manager/TaskManager.module.css';
import styles from './Upload.module.css';

/** The last three uploads of this browser, each with its link and a QR code on demand. */
export function RecentUploads({ items }: { items: RecentUpload[] }) {
  const { t, i18n } = useLingui();
  const [qrFor, setQrFor] = useState<string>();
  if (items.length === 0) return null;
  return (
    <section className={styles.recent} aria-labelledby="recent-uploads-title">
      <h2 id="recent-uploads-title">{t`Recent uploads`}</h2>
      <ul className={styles.recentList}>
        {items.map((item) => (
          <li key={item.slug} className={styles.recentItem} data-recent-slug={item.slug}>
            <div className={styles.recentText}>
              <a href={fileShareUrl(item.slug)}>{item.filename}</a>
              <span className={taskStyles.meta}>
                {formatBytes(item.size)} · {formatDateTime(item.uploadedAt, i18n.locale)}
              </span>
            </div>
            <Button
              size="small"
              aria-expanded={qrFor === item.slug}
              aria-label={t`QR code of ${item.filename}`}
              onClick={() => setQrFor((current) => (current === item.slug ? undefined : item.slug))}
            >
              <QrIcon size={15} aria-hidden />
            </Button>
            {qrFor === item.slug && (
              <div className={styles.recentQr}>
                <QrCode data={fileShareUrl(item.slug)} size={150} label={t`QR code of ${item.filename}`} />
              </div>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
