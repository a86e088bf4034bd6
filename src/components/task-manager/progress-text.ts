import type { TransferProgress } from '../../../contract/transfer';

/**
 * Whether a progress update leaves a task row's text (percent, speed, time left) as it is shown: the worker works
 * out speed and time left once a second, and the text follows them, so that an update in between only moves the bar
 * (a compositor-only frame, no layout or paint on the page's main thread). Without a speed to show (items counted
 * rather than bytes) the percent follows every update; the end always shows.
 */
export const sameText = (shown: TransferProgress, next: TransferProgress): boolean =>
  shown.percent === next.percent ||
  (next.speed > 0 && next.percent < 100 && shown.speed === next.speed && shown.secondsLeft === next.secondsLeft);
