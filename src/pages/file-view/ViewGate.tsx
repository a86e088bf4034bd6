import { useLingui } from '@lingui/react/macro';
import Download from 'lucide-react/icons/download';
import Eye from 'lucide-react/icons/eye';
import { useState } from 'react';
import { Button } from '../../components/Button';
import { viewsLeftText } from '../../components/views-left';
import { FileFacts } from './FileFacts';
import styles from './FileView.module.css';
import type { LimitedPeek } from './landing';

/** What a press on the gate does once the view is spent. */
export type Spend = 'show' | 'download';

/** What opening the file spends: said before it is spent, and loudest when it is the last view. */
export function SpendNote({ viewsLeft }: { viewsLeft: number }) {
  const { t } = useLingui();
  if (viewsLeft === 1) return <p className={styles.warning}>{t`This is the last view: after this the file is gone.`}</p>;
  return <p className={styles.gateText}>{t`Opening it spends one of its views.`}</p>;
}

/**
 * A share with a view limit before its view is spent: what it is, from the peek, and the two buttons that spend
 * the view. Nothing here requests the file (no preview, no media `src`, no link to follow), so a link preview that
 * loads the page and clicks nothing spends nothing.
 */
export function ViewGate({ peek, onOpen }: { peek: LimitedPeek; onOpen: (spend: Spend) => Promise<void> }) {
  const { t } = useLingui();
  const [busy, setBusy] = useState(false);
  const press = (spend: Spend) => {
    setBusy(true);
    void onOpen(spend).finally(() => setBusy(false));
  };

  return (
    <article className={styles.article}>
      <header className={styles.header}>
        <div className={styles.titleBlock}>
          <h1 className={styles.title}>{peek.filename}</h1>
          <FileFacts size={peek.size} mimetype={peek.contentType} views={viewsLeftText(peek.viewsLeft)} expiresAt={peek.expiresAt} />
        </div>
      </header>
      <section className={styles.gate} aria-label={t`Open the file`}>
        <SpendNote viewsLeft={peek.viewsLeft} />
        <div className={styles.gateActions}>
          <Button variant="primary" disabled={busy} onClick={() => press('show')}>
            <Eye size={16} aria-hidden />
            {t`Show`}
          </Button>
          <Button disabled={busy} onClick={() => press('download')}>
            <Download size={16} aria-hidden />
            {t`Download`}
          </Button>
        </div>
      </section>
    </article>
  );
}
