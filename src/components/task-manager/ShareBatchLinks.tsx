import { useLingui } from '@lingui/react/macro';
import { Copy } from 'lucide-react';
import type { ShareBatchEntry } from '../../../contract/transfer';
import { fileShareUrl } from '../../lib/api/files';
import { copyText } from '../../lib/clipboard';
import { toasts } from '../../lib/toast';
import { Button } from '../Button';
import { VirtualList } from '../VirtualList';
import styles from './ShareBatchLinks.module.css';

/** Height of one file's line, in px: room for a small button. */
const LINE_PX = 36;

/** Copies, and says whether it did. */
async function copyAndSay(text: string, done: string, failed: string) {
  if (await copyText(text)) toasts.success(done);
  else toasts.error(failed);
}

/**
 * The shares of files shared together: "Copy all links" (one link a line, in the batch's order), then each file's
 * name, link and copy button, in a virtualised list (a batch may hold hundreds of files).
 */
export function ShareBatchLinks({ shares, label }: { shares: readonly ShareBatchEntry[]; label: string }) {
  const { t } = useLingui();
  const copyAll = () => copyAndSay(shares.map((entry) => fileShareUrl(entry.share.slug)).join('\n'), t`Links copied`, t`Copy failed, please copy it by hand`);
  return (
    <div className={styles.links}>
      <div className={styles.toolbar}>
        <Button size="small" variant="primary" aria-label={t`Copy all links of ${label}`} onClick={copyAll}>
          <Copy size={15} aria-hidden />
          {t`Copy all links`}
        </Button>
      </div>
      <VirtualList items={shares} rowHeight={LINE_PX} maxHeight={LINE_PX * 8} label={t`Links of ${label}`} itemKey={(entry) => entry.path}>
        {(entry) => <ShareLine entry={entry} />}
      </VirtualList>
    </div>
  );
}

/** One file: its name, its link (the path only: the name and the slug are what tell the lines apart) and a copy button. */
function ShareLine({ entry }: { entry: ShareBatchEntry }) {
  const { t } = useLingui();
  const url = fileShareUrl(entry.share.slug);
  const label = entry.path;
  return (
    <div className={styles.line} data-share-path={entry.path}>
      <span className={styles.name} title={label}>
        {label}
      </span>
      <a className={styles.link} href={url} title={url} target="_blank" rel="noreferrer">
        {`/file/${entry.share.slug}`}
      </a>
      <Button size="small" variant="ghost" aria-label={t`Copy the link of ${label}`} onClick={() => copyAndSay(url, t`Link copied`, t`Copy failed, please copy it by hand`)}>
        <Copy size={15} aria-hidden />
      </Button>
    </div>
  );
}
