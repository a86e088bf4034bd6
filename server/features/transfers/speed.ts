/** The span speed is measured over: long enough to smooth bursts of parts, short enough to follow a stall. */
export const SPEED_WINDOW_MS = 5000;
/** Samples closer than this replace each other, so a fast stream keeps a few dozen samples, not thousands. */
const SAMPLE_EVERY_MS = 200;

/** Bytes a second over the last few seconds, from the running total at the times it was reported. */
export class SpeedMeter {
  private readonly samples: { at: number; bytes: number }[];

  constructor(startedAt: number, bytes = 0) {
    this.samples = [{ at: startedAt, bytes }];
  }

  add(at: number, totalBytes: number) {
    const last = this.samples[this.samples.length - 1];
    const previous = this.samples[this.samples.length - 2];
    if (last && previous && at - previous.at < SAMPLE_EVERY_MS) {
      last.at = at;
      last.bytes = totalBytes;
    } else this.samples.push({ at, bytes: totalBytes });
    // Keep one sample at or before the window's start, so the span covers the whole window.
    while (this.samples.length > 2 && (this.samples[1]?.at ?? at) <= at - SPEED_WINDOW_MS) this.samples.shift();
  }

  /** Null until a second has gone by; 0 when nothing moved in the window. */
  speed(now: number): number | null {
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    if (!first || !last || now - first.at < 1000) return null;
    if (now - last.at >= SPEED_WINDOW_MS) return 0;
    return Math.round(((last.bytes - first.bytes) * 1000) / (now - first.at));
  }
}
