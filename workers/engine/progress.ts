import { PROGRESS_EVENTS_PER_SECOND, PROGRESS_FIGURES_EVERY_MS, type TransferProgress } from '../../contract/transfer';

const MIN_INTERVAL_MS = 1000 / PROGRESS_EVENTS_PER_SECOND;
/** Weight of the newest speed sample: smooth enough to read, quick enough to follow a change. */
const SMOOTHING = 0.3;

/**
 * Turns raw byte counts into progress with speed and time left, and sends the page only what it would show
 * differently: at most PROGRESS_EVENTS_PER_SECOND updates a second, none whose percent, speed and time left are all
 * those last sent, with speed and time left refreshed every PROGRESS_FIGURES_EVERY_MS. Each update the page gets
 * costs its main thread a message, a render and a frame; a figure that changes five times a second cannot be read
 * anyway. The first and the last (all bytes done) always pass, so the page ends on the exact figures.
 */
export class ProgressMeter {
  private speed = 0;
  private lastSample: { at: number; loaded: number } | undefined;
  private lastEmitAt = Number.NEGATIVE_INFINITY;
  private sent: TransferProgress | undefined;
  /** The speed and time left shown, and when they were worked out. */
  private figures: { at: number; speed: number; secondsLeft: number | null } | undefined;

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
    const progress = this.snapshot(loaded, at, finished);
    const sent = this.sent;
    if (!finished && sent && progress.percent === sent.percent && progress.speed === sent.speed && progress.secondsLeft === sent.secondsLeft) return;
    this.lastEmitAt = at;
    this.sent = progress;
    this.emit(progress);
  }

  private snapshot(loaded: number, at: number, exact: boolean): TransferProgress {
    const total = this.total;
    const percent = total > 0 ? Math.min(100, Math.floor((loaded / total) * 100)) : 100;
    if (exact || !this.figures || at - this.figures.at >= PROGRESS_FIGURES_EVERY_MS) {
      const secondsLeft = this.speed > 0 ? Math.max(0, Math.round((total - loaded) / this.speed)) : null;
      this.figures = { at, speed: Math.round(this.speed), secondsLeft };
    }
    return { loaded, total, percent, speed: this.figures.speed, secondsLeft: this.figures.secondsLeft };
  }
}
