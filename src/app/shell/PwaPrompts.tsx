import { lazy, Suspense } from 'react';
import { useLoadedActors } from '../actors';
import styles from './PwaPrompts.module.css';

// Their code comes with their machines, after a share's first render: until then there is nothing to prompt.
const InstallPrompt = lazy(() => import('./InstallPrompt').then((module) => ({ default: module.InstallPrompt })));
const UpdatePrompt = lazy(() => import('./UpdatePrompt').then((module) => ({ default: module.UpdatePrompt })));

/** The update prompt, at the bottom of the screen: a new version should not go unseen. */
export function PwaPrompts() {
  const loaded = useLoadedActors() !== undefined;
  return (
    <div className={styles.stack}>
      {loaded && (
        <Suspense fallback={null}>
          <UpdatePrompt />
        </Suspense>
      )}
    </div>
  );
}

/**
 * The install prompt, at the bottom of the page in the flow of its content: it takes its own room, so it never
 * covers what the page shows or its buttons.
 */
export function InstallPromptSlot() {
  const loaded = useLoadedActors() !== undefined;
  return (
    <div className={styles.slot}>
      {loaded && (
        <Suspense fallback={null}>
          <InstallPrompt />
        </Suspense>
      )}
    </div>
  );
}
