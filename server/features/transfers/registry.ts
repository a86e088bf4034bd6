import { randomUUID } from 'node:crypto';
import type { Actor, LiveTransfer, TransferKind, TransferOutcome } from '../../../contract/jobs';
import type { AppDeps } from '../../context';
import { INSTANCE_ID } from '../../db/leases';
import { readTransfer, writeTransfers } from './records';
import { SpeedMeter } from './speed';
import { log } from '../../observability/log';

export type TransferEnd = Exclude<TransferOutcome, 'running'>;

export interface TransferStart {
  kind: TransferKind;
  who: Actor;
  /** The file's name or the mount path. */
  name: string;
  bytesTotal: number | null;
  /**
   * A transfer that spans requests (a multipart upload, from init to complete) names itself, so that the later
   * requests find it with `resume`, on this instance or another.
   */
  id?: string;
}

/** What a hook in an upload or download path holds: it reports bytes and parts, then the end. */
export interface Transfer {
  readonly id: string;
  progress(bytes: number): void;
  /** Parts signed (`+n`) or finished (`-1`), for a multipart upload whose parts go straight to storage. */
  partsInFlight(delta: number): void;
  /** The outcome; `bytesDone` when the end tells the size (a completed multipart upload). */
  end(outcome: TransferEnd, bytesDone?: number): void;
  /** A form upload learns its file's name once its part begins. */
  rename(name: string): void;
}

export type TransferListener = (transfer: LiveTransfer) => void;

interface Entry {
  transfer: LiveTransfer;
  meter: SpeedMeter;
  dirty: boolean;
  writtenAt: number;
  /** Kept in memory only while requests touch it: another instance may carry on with it. */
  spansRequests: boolean;
}

/** How often changed transfers are written and announced. */
export const TRANSFER_FLUSH_MS = 1000;
/** A running transfer that does not move is still written this often, so that the sweep knows it lives. */
const HEARTBEAT_MS = 30_000;
/** A multipart upload no request touched for this long leaves memory (its row stays). */
const IDLE_MS = 60_000;

const DIRECTIONS: Record<TransferKind, 'in' | 'out'> = {
  'share-upload': 'in',
  'batch-upload': 'in',
  'fs-upload': 'in',
  'file-request-upload': 'in',
  'webdav-put': 'in',
  'webdav-get': 'out',
  download: 'out',
};

const ignored: Transfer = { id: '', progress: () => undefined, partsInFlight: () => undefined, end: () => undefined, rename: () => undefined };

/**
 * The transfers this instance carries, in memory, written to `live_transfers` at most about once a second each (and
 * at once when one starts or ends), and announced to this instance's listeners as they are written.
 */
export class TransferRegistry {
  readonly instance: string;
  private readonly everyMs: number;
  private readonly live = new Map<string, Entry>();
  private readonly listeners = new Set<TransferListener>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: Pick<AppDeps, 'db' | 'now'>,
    options: { instance?: string; everyMs?: number } = {},
  ) {
    this.instance = options.instance ?? INSTANCE_ID;
    this.everyMs = options.everyMs ?? TRANSFER_FLUSH_MS;
  }

  start(input: TransferStart): Transfer {
    const at = this.deps.now();
    const transfer: LiveTransfer = {
      id: input.id ?? randomUUID(),
      kind: input.kind,
      direction: DIRECTIONS[input.kind],
      who: input.who,
      name: input.name,
      bytesDone: 0,
      bytesTotal: input.bytesTotal,
      speed: null,
      partsInFlight: input.id === undefined ? null : 0,
      outcome: 'running',
      instance: this.instance,
      startedAt: at.toISOString(),
      updatedAt: at.toISOString(),
      finishedAt: null,
    };
    const entry = { transfer, meter: new SpeedMeter(at.getTime()), dirty: true, writtenAt: 0, spansRequests: input.id !== undefined };
    this.live.set(transfer.id, entry);
    void this.write([entry]);
    this.tick();
    return this.handleOf(entry);
  }

  /**
   * The transfer `id` began by an earlier request, taken over from the table when another instance (or this one,
   * before it let it go from memory) wrote it. Unknown or ended: a handle that reports nothing.
   */
  async resume(id: string): Promise<Transfer> {
    const known = this.live.get(id);
    if (known) return this.handleOf(known);
    const stored = await readTransfer(this.deps.db, id).catch(() => undefined);
    if (!stored || stored.outcome !== 'running') return ignored;
    const entry = this.live.get(id) ?? {
      transfer: { ...stored, instance: this.instance },
      meter: new SpeedMeter(this.deps.now().getTime(), stored.bytesDone),
      dirty: true,
      writtenAt: 0,
      spansRequests: true,
    };
    this.live.set(id, entry);
    this.tick();
    return this.handleOf(entry);
  }

  /** Transfers this instance carries now. */
  inFlight(): number {
    let running = 0;
    for (const { transfer } of this.live.values()) if (transfer.outcome === 'running') running++;
    return running;
  }

  /** Called with every transfer of this instance as it is written; answers the unsubscribe function. */
  subscribe(listener: TransferListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Writes what changed now (a read of the table, a shutdown); concurrent calls wait for the same writes. */
  flush(): Promise<void> {
    const now = this.deps.now().getTime();
    const due = [...this.live.values()].filter(
      (entry) => entry.dirty || (!entry.spansRequests && entry.transfer.outcome === 'running' && now - entry.writtenAt >= HEARTBEAT_MS),
    );
    for (const entry of this.live.values()) {
      if (entry.spansRequests && !entry.dirty && now - entry.writtenAt >= IDLE_MS) this.live.delete(entry.transfer.id);
    }
    return due.length > 0 ? this.write(due) : this.writing;
  }

  private handleOf(entry: Entry): Transfer {
    const { transfer } = entry;
    const running = () => transfer.outcome === 'running';
    return {
      id: transfer.id,
      progress: (bytes) => {
        if (!running() || bytes <= 0) return;
        transfer.bytesDone += bytes;
        entry.meter.add(this.deps.now().getTime(), transfer.bytesDone);
        entry.dirty = true;
      },
      rename: (name) => {
        transfer.name = name;
        entry.dirty = true;
      },
      partsInFlight: (delta) => {
        if (!running()) return;
        transfer.partsInFlight = Math.max(0, (transfer.partsInFlight ?? 0) + delta);
        entry.dirty = true;
      },
      end: (outcome, bytesDone) => {
        if (!running()) return;
        transfer.outcome = outcome;
        // Completed means every byte arrived, also those that went straight to storage unseen.
        const whole = outcome === 'completed' ? (transfer.bytesTotal ?? undefined) : undefined;
        transfer.bytesDone = bytesDone ?? whole ?? transfer.bytesDone;
        transfer.finishedAt = this.deps.now().toISOString();
        transfer.partsInFlight = transfer.partsInFlight === null ? null : 0;
        entry.dirty = true;
        void this.write([entry]);
      },
    };
  }

  /** Runs the flush every `everyMs` while this instance carries something; timers never keep the process alive. */
  private tick() {
    if (this.timer) return;
    this.timer = setInterval(() => {
      void this.flush();
      if (this.live.size === 0) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    }, this.everyMs);
    this.timer.unref?.();
  }

  private write(entries: Entry[]): Promise<void> {
    const at = this.deps.now();
    const snapshot = entries.map((entry) => {
      const { transfer } = entry;
      transfer.updatedAt = at.toISOString();
      transfer.speed = transfer.outcome === 'running' ? entry.meter.speed(at.getTime()) : null;
      entry.dirty = false;
      entry.writtenAt = at.getTime();
      if (transfer.outcome !== 'running') this.live.delete(transfer.id);
      return { ...transfer };
    });
    for (const transfer of snapshot) for (const listener of this.listeners) listener(transfer);
    this.writing = this.writing
      .then(() => writeTransfers(this.deps.db, snapshot))
      // The admin's view may miss a beat (the database closing under it); the transfer itself goes on.
      .catch((error: unknown) => log.error({ err: error }, 'Live transfers could not be written'));
    return this.writing;
  }
}

const registries = new WeakMap<object, TransferRegistry>();

/** The app's registry (one per app, so each test app has its own). */
export function transfersOf(deps: Pick<AppDeps, 'db' | 'now'>): TransferRegistry {
  let registry = registries.get(deps);
  if (!registry) {
    registry = new TransferRegistry(deps);
    registries.set(deps, registry);
  }
  return registry;
}
