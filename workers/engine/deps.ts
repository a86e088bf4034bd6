import { openJournal, type Journal } from '../journal/store';
import { browserTransport, type Transport } from '../transport/http';
import { Scheduler } from './scheduler';
import { browserOnline, sleep, untilOnline } from './waits';

/** What the engine works with: given by the worker in the browser, by fakes in tests. */
export interface EngineDeps {
  journal: Journal;
  /** The one concurrency budget every task's requests share. */
  scheduler: Scheduler;
  transport: Transport;
  network: {
    online(): boolean;
    /** Resolves when the browser is back online; rejects as cancelled when `signal` aborts. */
    untilOnline(signal: AbortSignal): Promise<void>;
  };
  clock: {
    /** Milliseconds since the epoch, for the journal's events. */
    now(): number;
    sleep(ms: number, signal: AbortSignal): Promise<void>;
  };
}

export function browserDeps(): EngineDeps {
  return {
    journal: openJournal(),
    scheduler: new Scheduler(),
    transport: browserTransport,
    network: { online: browserOnline.isOnline, untilOnline: (signal) => untilOnline(signal) },
    clock: { now: Date.now, sleep },
  };
}
