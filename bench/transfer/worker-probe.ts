import type { BrowserContext, CDPSession, Page } from 'playwright-core';

/**
 * The dedicated worker's V8 heap through the Chrome DevTools Protocol: auto-attach from the page's session (not
 * flattened, so that this session can talk to the worker with Target.sendMessageToTarget), then
 * HeapProfiler.collectGarbage + Runtime.getHeapUsage in the worker. This is the worker's JavaScript heap; the
 * file's bytes live in Chromium's blob storage (browser process), outside it.
 */
export class WorkerProbe {
  private sessionId: string | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

  private constructor(private readonly cdp: CDPSession) {}

  static async attach(context: BrowserContext, page: Page): Promise<WorkerProbe> {
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

  get attached() {
    return this.sessionId !== undefined;
  }

  async call<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const sessionId = this.sessionId;
    if (!sessionId) throw new Error('no transfer worker attached');
    const id = this.nextId++;
    const answer = new Promise<T>((resolve, reject) => this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject }));
    await this.cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) });
    return answer;
  }

  /** Bytes in use after a full garbage collection. */
  async heapAfterGc(): Promise<number> {
    await this.call('HeapProfiler.collectGarbage');
    return (await this.call<{ usedSize: number }>('Runtime.getHeapUsage')).usedSize;
  }
}
