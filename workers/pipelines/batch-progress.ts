import type { BatchFile, UploadStage } from '../../contract/transfer';
import { ProgressMeter } from '../engine/progress';
import type { MultipartContext } from './multipart-upload';

/**
 * A batch's byte progress and its waits for the network, for both batch pipelines: only bytes the server or the
 * storage acknowledged count (whole files, and a large file's finished parts while it goes), the figures are
 * refreshed every second, and while any of its requests waits for the network the batch says so once.
 */
export class BatchProgress {
  private acknowledged: number;
  /** Acknowledged bytes of the large files under way, by key. */
  private readonly inFlight = new Map<string, number>();
  private readonly meter: ProgressMeter;
  private readonly stopHeartbeat: () => void;
  private waiting = 0;
  /** Large files waiting for the network, by key. */
  private readonly waitingFiles = new Set<string>();

  constructor(
    private readonly taskId: string,
    private readonly context: MultipartContext,
    files: BatchFile[],
    done: ReadonlySet<string>,
  ) {
    this.total = files.reduce((sum, entry) => sum + entry.file.size, 0);
    this.acknowledged = files.reduce((sum, entry) => sum + (done.has(entry.relativePath) ? entry.file.size : 0), 0);
    this.meter = new ProgressMeter(this.total, (progress) => context.emit({ type: 'engine.progress', taskId, progress }));
    this.stopHeartbeat = this.meter.heartbeat(() => this.show());
  }

  readonly total: number;

  show() {
    this.meter.update(this.acknowledged + [...this.inFlight.values()].reduce((sum, bytes) => sum + bytes, 0));
  }

  /** Whole files the server acknowledged. */
  acknowledge(bytes: number) {
    this.acknowledged += bytes;
  }

  /** A large file's acknowledged bytes so far; undefined when it has ended (done or failed). */
  partly(key: string, bytes: number | undefined) {
    if (bytes === undefined) {
      this.inFlight.delete(key);
      this.fileStage(key, 'uploading');
    } else this.inFlight.set(key, bytes);
    this.show();
  }

  /** A large file's own stage: while it waits for the network, the batch does too. */
  fileStage(key: string, stage: UploadStage) {
    const waits = stage === 'waitingForNetwork';
    if (waits === this.waitingFiles.has(key)) return;
    if (waits) {
      this.waitingFiles.add(key);
      this.startWaiting();
    } else {
      this.waitingFiles.delete(key);
      this.stopWaiting();
    }
  }

  startWaiting() {
    if (this.waiting++ > 0) return;
    this.context.emit({ type: 'engine.stage', taskId: this.taskId, stage: 'waitingForNetwork' });
    this.meter.stall();
  }

  stopWaiting() {
    if (--this.waiting === 0) this.context.emit({ type: 'engine.stage', taskId: this.taskId, stage: 'uploading' });
  }

  /** Waits until the browser is online again, the batch saying so meanwhile. */
  async waitForNetwork(): Promise<void> {
    this.startWaiting();
    try {
      await this.context.untilOnline(this.context.signal);
    } finally {
      this.stopWaiting();
    }
  }

  /** The end: the heartbeat stops, and with `complete` the exact last figures go out. */
  end(complete: boolean) {
    this.stopHeartbeat();
    if (complete) this.meter.update(this.total);
  }
}
