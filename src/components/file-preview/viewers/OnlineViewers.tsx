import { useLingui } from '@lingui/react/macro';
import Download from 'lucide-react/icons/download';
import ExternalLink from 'lucide-react/icons/external-link';
import { getPreviewSettings } from '../../../lib/api/system';
import { LinkButton } from '../../LinkButton';
import { Notice } from '../../Notice';
import { useLoaded } from './use-loaded';
import styles from './Viewer.module.css';

function ViewerLinks({ downloadUrl }: { downloadUrl: string }) {
  const { t } = useLingui();
  const encoded = encodeURIComponent(downloadUrl);
  return (
    <>
      <LinkButton external href={`https://view.officeapps.live.com/op/view.aspx?src=${encoded}`}>
        <ExternalLink size={15} aria-hidden />
        {t`Open in Microsoft viewer`}
      </LinkButton>
      <LinkButton external href={`https://docs.google.com/viewer?url=${encoded}`}>
        <ExternalLink size={15} aria-hidden />
        {t`Open in Google viewer`}
      </LinkButton>
    </>
  );
}

/**
 * Microsoft's and Google's online viewers, only where the admin turned them on (they fetch the file's link
 * themselves). `alone`: the format has no viewer in the page (doc, xls, ppt, odp, rtf), so without them the
 * visitor gets the download.
 */
export default function OnlineViewers({ downloadUrl, alone }: { downloadUrl: string; alone: boolean }) {
  const { t } = useLingui();
  const settings = useLoaded('settings', () => getPreviewSettings());
  const enabled = settings.status === 'ready' && settings.data.online_office_viewers;
  const hint = t`These online viewers fetch the file themselves, so they only work when this server is reachable from the internet at a public http(s) address.`;
  if (!alone) {
    if (!enabled) return null;
    return (
      <div className={styles.controls}>
        <ViewerLinks downloadUrl={downloadUrl} />
        <span className={styles.note}>{hint}</span>
      </div>
    );
  }
  if (settings.status === 'loading') return null;
  return (
    <Notice
      level={2}
      title={enabled ? t`Office document` : t`No preview for this type`}
      actions={
        enabled ? (
          <ViewerLinks downloadUrl={downloadUrl} />
        ) : (
          <LinkButton external href={downloadUrl}>
            <Download size={15} aria-hidden />
            {t`Download`}
          </LinkButton>
        )
      }
    >
      {enabled ? hint : t`Download the file to open it.`}
    </Notice>
  );
}
