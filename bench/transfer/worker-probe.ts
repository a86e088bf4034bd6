import type { BrowserContext, CDPSession, Page } from 'playwright-core';

/**
 * The dedicated worker's V8 heap through the Chrome DevTools Protocol: auto-attach from the page's session (not
 * flattened, so that this session can talk to the worker with Target.sendMessageToTarget), then
 * HeapProfiler.collectGarbage + Runtime.getHeapUsage in the worker. This is the worker's JavaScript heap and the
 * backing stores of its ArrayBuffers (the bytes of a response body read in chunks); a Blob's bytes live in
 * Chromium's blob storage (browser process), outside it.
 */
export class WorkerProbe {
  private sessionId: string | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

  private constructor(private readonly cdp: CDPSession) {}

  private static async attach(context: BrowserContext, page: Page): Promise<WorkerProbe> {
    const cdp = await context.newCDPSession(page);
    const probe = new WorkerProbe(cdp);
    cdp.on('Target.attachedToTarget', (event) => {
      if (event.targetInfo.type === 'worker' && /transfer/.test(`${event.targetInfo.title} ${event.targetInfo.url}`)) probe.sessionId = event.sessionId;
    });
    cdp.on('Target.receivedMessageFromTarget', (event) => {
      const message = JSON.parse(event.message) as { id?: number; result?: unknown; error?: { message: string } };
      const waiter = message.id !== undefined ? probe.pending.get(message.id) : undefined;
      if (!waiter || message.id === undefined) return;
      probe.pending.delete(message.id);
      if (message.error) waiter.reject(new Error(message.error.message));
      else waiter.resolve(message.result);
    });
    await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
    return probe;
  }

  /** The probe once the engine's worker is attached: it starts with the signed-in page (which rebuilds its task list from the journal). */
  static async attachToEngine(context: BrowserContext, page: Page): Promise<WorkerProbe> {
    const probe = await WorkerProbe.attach(context, page);
    for (let waited = 0; probe.sessionId === undefined && waited < 10_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    return probe;
  }

  private async call<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const sessionId = this.sessionId;
    if (!sessionId) throw new Error('no transfer worker attached');
    const id = this.nextId++;
    const answer = new Promise<T>((resolve, reject) => this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject }));
    await this.cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) });
    return answer;
  }

  /**
   * Samples the worker's heap in use once a second (each sample goes through the page's DevTools session, and the
   * page is what is measured) until the returned function is called, which answers the highest sample.
   */
  samplePeak(): () => number {
    let peak = 0;
    const sampler = setInterval(() => {
      this.inUse()
        .then((bytes) => (peak = Math.max(peak, bytes)))
        .catch(() => undefined);
    }, 1000);
    return () => {
      clearInterval(sampler);
      return peak;
    };
  }

  /** Bytes in use after a full garbage collection. */
  async heapAfterGc(): Promise<number> {
    await this.call('HeapProfiler.collectGarbage');
    return this.inUse();
  }

  private async inUse(): Promise<number> {
    const usage = await this.call<{ usedSize: number; backingStorageSize?: number }>('Runtime.getHeapUsage');
    return usage.usedSize + (usage.backingStorageSize ?? 0);
  }
}

const mib = (bytes: number) => Math.round((bytes / (1024 * 1024)) * 100) / 100;

/** The stderr line about the worker's heap around the timed rounds (undefined: not measurable). */
export function describeWorkerHeap(before: number | undefined, after: number | undefined, peak: number): string {
  if (before === undefined) return 'worker heap not measurable';
  return `worker heap: ${mib(before)} MiB before, ${after === undefined ? '?' : mib(after)} MiB after (both after GC), peak ${mib(peak)} MiB`;
}
