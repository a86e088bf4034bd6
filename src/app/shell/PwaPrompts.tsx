import { InstallPrompt } from './InstallPrompt';
import { UpdatePrompt } from './UpdatePrompt';
import styles from './PwaPrompts.module.css';

/** The install and update prompts, stacked at the bottom of the screen (frontend-spec §2). */
export function PwaPrompts() {
  return (
    <div className={styles.stack}>
      <UpdatePrompt />
      <InstallPrompt />
    </div>
  );
}
