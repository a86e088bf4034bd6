import styles from './ProgressBar.module.css';

/**
 * A labelled progress bar that assistive technology reads as one. `live`: a bar that moves several times a second
 * (a transfer) gets a compositor layer of its own, so that a move is a new transform for the compositor, with no
 * paint on the page's main thread.
 */
export function ProgressBar({
  value,
  label,
  tone = 'accent',
  live = false,
}: {
  value: number;
  label: string;
  tone?: 'accent' | 'success' | 'danger';
  live?: boolean;
}) {
  const clamped = Math.max(0, Math.min(100, value));
  return (
    <div className={styles.track} role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={clamped}>
      <div className={`${styles.fill} ${styles[tone]}${live ? ` ${styles.live}` : ''}`} style={{ transform: `scaleX(${clamped / 100})` }} />
    </div>
  );
}
