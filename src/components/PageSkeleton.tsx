import { useLingui } from '@lingui/react/macro';
import styles from './PageSkeleton.module.css';

/** Shown while a page's code or data loads. */
export function PageSkeleton({ lines = 4 }: { lines?: number }) {
  const { t } = useLingui();
  return (
    <div className={styles.skeleton} role="status" aria-label={t`Loading`}>
      <div className={`${styles.bar} ${styles.title}`} />
      {Array.from({ length: lines }, (_, index) => (
        <div key={index} className={styles.bar} />
      ))}
    </div>
  );
}
