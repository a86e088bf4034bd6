import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { RefreshCw } from 'lucide-react';
import { useId } from 'react';
import { Button } from '../../components/Button';
import { useAppActors } from '../actors';
import styles from './PwaPrompts.module.css';

/** "New version available" at the bottom while the update-prompt machine shows it. */
export function UpdatePrompt() {
  const { t } = useLingui();
  const { updatePrompt } = useAppActors();
  const visible = useSelector(updatePrompt, (snapshot) => snapshot.hasTag('visible'));
  const busy = useSelector(updatePrompt, (snapshot) => snapshot.hasTag('busy'));
  const titleId = useId();
  if (!visible) return null;
  return (
    <section className={styles.prompt} aria-labelledby={titleId} data-testid="update-prompt">
      <RefreshCw size={22} aria-hidden className={styles.icon} />
      <div className={styles.text}>
        <p id={titleId} className={styles.title}>
          {t`New version available`}
        </p>
        <p className={styles.detail}>{t`Update now to load the latest version of Clipstash.`}</p>
      </div>
      <div className={styles.actions}>
        <Button variant="primary" size="small" disabled={busy} onClick={() => updatePrompt.send({ type: 'update.accept' })}>
          {busy ? t`Updating…` : t`Update now`}
        </Button>
        <Button variant="ghost" size="small" disabled={busy} onClick={() => updatePrompt.send({ type: 'update.later' })}>
          {t`Later`}
        </Button>
      </div>
    </section>
  );
}
