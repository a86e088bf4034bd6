import styles from './ProgressBar.module.css';

/** A labelled progress bar that assistive technology reads as one. */
export function ProgressBar({ value, label, tone = 'accent' }: { value: number; label: string; tone?: 'accent' | 'success' | 'danger' }) {
  const clamped = Math.max(0, Math.min(100, value));
  return (
    <div className={styles.track} role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={clamped}>
      <div className={`${styles.fill} ${styles[tone]}`} style={{ transform: `scaleX(${clamped / 100})` }} />
    </div>
  );
}
