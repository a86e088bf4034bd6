import { PROGRESS_EVENTS_PER_SECOND, type TransferProgress } from '../../contract/transfer';

const MIN_INTERVAL_MS = 1000 / PROGRESS_EVENTS_PER_SECOND;
/** Weight of the newest speed sample: smooth enough to read, quick enough to follow a change. */
const SMOOTHING = 0.3;

/**
 * Turns raw byte counts into progress with speed and time left, and lets through at most PROGRESS_EVENTS_PER_SECOND
 * updates a second (the first and the last always pass) so the worker never floods the page.
 */
export class ProgressMeter {
  private speed = 0;
  private lastSample: { at: number; loaded: number } | undefined;
  private lastEmitAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly total: number,
    private readonly emit: (progress: TransferProgress) => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  update(loaded: number) {
    const at = this.now();
    if (this.lastSample && at > this.lastSample.at) {
      const instant = ((loaded - this.lastSample.loaded) * 1000) / (at - this.lastSample.at);
      this.speed = this.speed === 0 ? instant : this.speed + SMOOTHING * (instant - this.speed);
    }
    this.lastSample = { at, loaded };
    const finished = loaded >= this.total;
    if (!finished && at - this.lastEmitAt < MIN_INTERVAL_MS) return;
    this.lastEmitAt = at;
    this.emit(this.snapshot(loaded));
  }

  snapshot(loaded: number): TransferProgress {
    const total = this.total;
    const percent = total > 0 ? Math.min(100, Math.floor((loaded / total) * 100)) : 100;
    const secondsLeft = this.speed > 0 ? Math.max(0, Math.round((total - loaded) / this.speed)) : null;
    return { loaded, total, percent, speed: Math.round(this.speed), secondsLeft };
  }
}
