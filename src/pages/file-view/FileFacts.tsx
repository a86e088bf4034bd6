import { useLingui } from '@lingui/react/macro';
import Clock from 'lucide-react/icons/clock';
import Eye from 'lucide-react/icons/eye';
import { formatBytes, formatDateTime } from '../../lib/format';
import styles from './FileView.module.css';

interface FileFactsProps {
  size: number;
  mimetype: string;
  /** Absent before a view is spent: the peek does not tell it. */
  uploadedAt?: string;
  /** The views, already worded: counted, or left. */
  views: string;
  expiresAt: string | null;
}

/** A shared file's facts under its name: the same before its view is spent (at the gate) and after. */
export function FileFacts({ size, mimetype, uploadedAt, views, expiresAt }: FileFactsProps) {
  const { t, i18n } = useLingui();
  return (
    <dl className={styles.facts}>
      <div>
        <dt>{t`Size`}</dt>
        <dd>{formatBytes(size)}</dd>
      </div>
      <div>
        <dt>{t`Type`}</dt>
        <dd className="mono">{mimetype}</dd>
      </div>
      {uploadedAt && (
        <div>
          <dt>{t`Uploaded`}</dt>
          <dd>{formatDateTime(uploadedAt, i18n.locale)}</dd>
        </div>
      )}
      <div>
        <dt>
          <Eye size={14} aria-hidden /> {t`Views`}
        </dt>
        <dd>{views}</dd>
      </div>
      <div>
        <dt>
          <Clock size={14} aria-hidden /> {t`Expires`}
        </dt>
        <dd>{expiresAt ? formatDateTime(expiresAt, i18n.locale) : t`Never`}</dd>
      </div>
    </dl>
  );
}
