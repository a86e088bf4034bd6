import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { Download } from 'lucide-react';
import { useId } from 'react';
import { Button } from '../../components/Button';
import { useAppActors } from '../actors';
import styles from './PwaPrompts.module.css';

/** "Install Clipstash" at the bottom while the install-prompt machine shows it. */
export function InstallPrompt() {
  const { t } = useLingui();
  const { installPrompt } = useAppActors();
  const visible = useSelector(installPrompt, (snapshot) => snapshot.hasTag('visible'));
  const busy = useSelector(installPrompt, (snapshot) => snapshot.hasTag('busy'));
  const titleId = useId();
  if (!visible) return null;
  return (
    <section className={styles.prompt} aria-labelledby={titleId} data-testid="install-prompt">
      <Download size={22} aria-hidden className={styles.icon} />
      <div className={styles.text}>
        <p id={titleId} className={styles.title}>
          {t`Install Clipstash`}
        </p>
        <p className={styles.detail}>{t`Add it to your device: it opens like an app and works offline.`}</p>
      </div>
      <div className={styles.actions}>
        <Button variant="primary" size="small" disabled={busy} onClick={() => installPrompt.send({ type: 'install.accept' })}>
          {t`Install`}
        </Button>
        <Button variant="ghost" size="small" disabled={busy} onClick={() => installPrompt.send({ type: 'install.later' })}>
          {t`Later`}
        </Button>
      </div>
    </section>
  );
}
