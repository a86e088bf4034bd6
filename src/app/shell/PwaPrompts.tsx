import { InstallPrompt } from './InstallPrompt';
import { UpdatePrompt } from './UpdatePrompt';
import styles from './PwaPrompts.module.css';

/** The update prompt, at the bottom of the screen (frontend-spec §2): a new version should not go unseen. */
export function PwaPrompts() {
  return (
    <div className={styles.stack}>
      <UpdatePrompt />
    </div>
  );
}

/**
 * The install prompt, at the bottom of the page in the flow of its content: it takes its own room, so it never
 * covers what the page shows or its buttons.
 */
export function InstallPromptSlot() {
  return (
    <div className={styles.slot}>
      <InstallPrompt />
    </div>
  );
}
