import type { BrowserContext, Page } from 'playwright-core';
import { CdpCalls, type CdpAnswer } from './cdp-calls';
import type { CdpPipe } from './quiet-chromium';

type Call = <T>(method: string, params?: Record<string, unknown>) => Promise<T>;

const isEngine = (target: { type: string; title: string; url: string }) => target.type === 'worker' && /transfer/.test(`${target.title} ${target.url}`);

/** Waits up to 10 s for `found()` to say yes: the engine's worker starts with the signed-in page. */
async function waitFor(found: () => boolean) {
  for (let waited = 0; !found() && waited < 10_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
}

/**
 * The dedicated worker's V8 heap through the Chrome DevTools Protocol: attached to the engine's worker from the
 * page's session (auto-attach), then HeapProfiler.collectGarbage + Runtime.getHeapUsage in the worker. This is the
 * worker's JavaScript heap and the backing stores of its ArrayBuffers (the bytes of a response body read in
 * chunks); a Blob's bytes live in Chromium's blob storage (browser process), outside it.
 */
export class WorkerProbe {
  private constructor(private readonly call: Call) {}

  /** Through a Playwright CDP session of the page (the page rebuilds its task list from the journal meanwhile). */
  static async attachToEngine(context: BrowserContext, page: Page): Promise<WorkerProbe> {
    const cdp = await context.newCDPSession(page);
    let sessionId: string | undefined;
    const calls = new CdpCalls();
    cdp.on('Target.attachedToTarget', (event) => {
      if (isEngine(event.targetInfo)) sessionId = event.sessionId;
    });
    cdp.on('Target.receivedMessageFromTarget', (event) => calls.answer(JSON.parse(event.message) as CdpAnswer));
    await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
    await waitFor(() => sessionId !== undefined);
    return new WorkerProbe(<T>(method: string, params: Record<string, unknown> = {}) => {
      const target = sessionId;
      if (!target) return Promise.reject(new Error('no transfer worker attached'));
      return calls.call<T>((id) => {
        cdp.send('Target.sendMessageToTarget', { sessionId: target, message: JSON.stringify({ id, method, params }) }).catch((error: Error) => calls.answer({ id, error }));
      });
    });
  }

  /**
   * Through the quiet Chromium's own pipe (flat sessions): attached to the page and its engine worker only, every
   * other worker (a copy's couriers) let go as soon as it is announced.
   */
  static async overPipe(cdp: CdpPipe, pageTargetId: string): Promise<WorkerProbe> {
    const { sessionId: page } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId: pageTargetId, flatten: true });
    let engine: string | undefined;
    cdp.on((event) => {
      if (event.method !== 'Target.attachedToTarget' || event.sessionId !== page) return;
      const { sessionId, targetInfo } = event.params as { sessionId: string; targetInfo: { type: string; title: string; url: string } };
      if (isEngine(targetInfo)) engine = sessionId;
      else void cdp.send('Target.detachFromTarget', { sessionId }, page).catch(() => undefined);
    });
    await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true }, page);
    await waitFor(() => engine !== undefined);
    return new WorkerProbe(<T>(method: string, params: Record<string, unknown> = {}) => {
      if (!engine) return Promise.reject(new Error('no transfer worker attached'));
      return cdp.send<T>(method, params, engine);
    });
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
