import { PROGRESS_EVENTS_PER_SECOND, PROGRESS_FIGURES_EVERY_MS, type TransferProgress } from '../../contract/transfer';

const MIN_INTERVAL_MS = 1000 / PROGRESS_EVENTS_PER_SECOND;
/** Speed is the bytes acknowledged over the last few seconds: steady enough to read, and it falls when nothing lands. */
const SPEED_WINDOW_MS = 5000;

/**
 * Turns byte counts into progress with speed and time left, and sends the page only what it would show
 * differently: at most PROGRESS_EVENTS_PER_SECOND updates a second, none whose percent, speed and time left are all
 * those last sent, with speed and time left refreshed every PROGRESS_FIGURES_EVERY_MS. Each update the page gets
 * costs its main thread a message, a render and a frame; a figure that changes five times a second cannot be read
 * anyway. The first and the last (all bytes done) always pass, so the page ends on the exact figures. Callers count
 * bytes the server or the storage acknowledged, not bytes handed to the browser, so that the speed is true.
 */
export class ProgressMeter {
  /** Samples of the speed window, oldest first. */
  private samples: { at: number; loaded: number }[] = [];
  private lastLoaded = 0;
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
    this.lastLoaded = loaded;
    this.samples.push({ at, loaded });
    // Keep one sample at or before the window's start, so that the window spans it whole.
    while (this.samples.length > 2 && (this.samples[1]?.at ?? at) <= at - SPEED_WINDOW_MS) this.samples.shift();
    const finished = loaded >= this.total;
    if (!finished && at - this.lastEmitAt < MIN_INTERVAL_MS) return;
    const progress = this.snapshot(loaded, at, finished);
    const sent = this.sent;
    if (!finished && sent && progress.percent === sent.percent && progress.speed === sent.speed && progress.secondsLeft === sent.secondsLeft) return;
    this.send(progress, at);
  }

  /**
   * Nothing can move now (offline): the page shows no speed and no time left until bytes land again, and the
   * speed starts afresh then.
   */
  stall() {
    const at = this.now();
    this.samples = [];
    this.figures = { at, speed: 0, secondsLeft: null };
    this.send(this.snapshot(this.lastLoaded, at, false), at);
  }

  /** Updates with the bytes `current` gives every PROGRESS_FIGURES_EVERY_MS, so that the speed falls while nothing lands. */
  heartbeat(current: () => void): () => void {
    const timer = setInterval(current, PROGRESS_FIGURES_EVERY_MS);
    return () => clearInterval(timer);
  }

  private send(progress: TransferProgress, at: number) {
    this.lastEmitAt = at;
    this.sent = progress;
    this.emit(progress);
  }

  private speedAt(at: number): number {
    const oldest = this.samples[0];
    if (!oldest || at <= oldest.at) return 0;
    return ((this.lastLoaded - oldest.loaded) * 1000) / (at - oldest.at);
  }

  private snapshot(loaded: number, at: number, exact: boolean): TransferProgress {
    const total = this.total;
    const percent = total > 0 ? Math.min(100, Math.floor((loaded / total) * 100)) : 100;
    if (exact || !this.figures || at - this.figures.at >= PROGRESS_FIGURES_EVERY_MS) {
      const speed = this.speedAt(at);
      const secondsLeft = speed > 0 ? Math.max(0, Math.round((total - loaded) / speed)) : null;
      this.figures = { at, speed: Math.round(speed), secondsLeft };
    }
    return { loaded, total, percent, speed: this.figures.speed, secondsLeft: this.figures.secondsLeft };
  }
}
