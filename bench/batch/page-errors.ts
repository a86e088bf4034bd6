import type { CdpPipe } from '../transfer/quiet-chromium';

interface RemoteObject {
  type?: string;
  value?: unknown;
  description?: string;
}

type Params = Record<string, unknown>;

/**
 * What Playwright's `page.on('console')` (errors), `page.on('pageerror')`, `page.on('requestfailed')` and its
 * workers' `console` would report, read over the quiet Chromium's own pipe instead (Playwright is not attached
 * during the measured run): in the page, in every worker it starts (the engine's, and any worker those start), and
 * in the app's service worker,
 * - `Runtime.consoleAPICalled` of type error or assert (console.error),
 * - `Runtime.exceptionThrown` (uncaught errors and unhandled rejections),
 * - `Log.entryAdded` at level error: what Chromium itself logs (a page's "Failed to load resource", CSP violations),
 *   less the copies of a worker's console messages it also logs in the page (source `worker`),
 * - `Network.loadingFailed` not cancelled on purpose (the engine's aborts, net::ERR_ABORTED, are not errors): a failed
 *   request of the page or of a worker, e.g. net::ERR_INSUFFICIENT_RESOURCES. Chromium logs a worker's failed
 *   requests nowhere else, so the Network domain is enabled in every session (each request then costs Chromium a
 *   few events over the pipe: less than Playwright's handling, not nothing); a request seen by two sessions (a
 *   worker's and the service worker's) counts once. `network: false` leaves it out.
 * Entries older than `watch()`'s call (replayed by Runtime.enable and Log.enable) are dropped.
 */
export class PageErrors {
  readonly errors: string[] = [];
  /** Each watched session, with the session it was attached through (undefined: the browser's own). */
  private readonly sessions = new Map<string, string | undefined>();
  /** Requests in flight (id → URL), to name a failed one; ids of failed ones already counted. */
  private readonly requests = new Map<string, string>();
  private readonly failed = new Set<string>();
  private stopListening: () => void = () => undefined;

  private constructor(
    private readonly cdp: CdpPipe,
    private readonly since: number,
    private readonly network: boolean,
  ) {}

  /** Starts watching the page session `pageSession` (attached with flatten) and what it starts. */
  static async watch(cdp: CdpPipe, pageSession: string, { network = true } = {}): Promise<PageErrors> {
    const watch = new PageErrors(cdp, Date.now(), network);
    watch.stopListening = cdp.on((event) => watch.onEvent(event.method, event.params, event.sessionId));
    await watch.enable(pageSession, undefined);
    const { targetInfos } = await cdp.send<{ targetInfos: { targetId: string; type: string }[] }>('Target.getTargets');
    for (const target of targetInfos.filter((info) => info.type === 'service_worker')) {
      const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId: target.targetId, flatten: true });
      await watch.enable(sessionId, undefined).catch(() => undefined);
    }
    return watch;
  }

  /** Detaches from the workers and service workers (the page session is its owner's to detach), and stops. */
  async stop(pageSession: string): Promise<void> {
    this.stopListening();
    for (const [sessionId, parent] of this.sessions) {
      if (sessionId !== pageSession) await this.cdp.send('Target.detachFromTarget', { sessionId }, parent).catch(() => undefined);
    }
    await this.cdp.send('Target.setAutoAttach', { autoAttach: false, waitForDebuggerOnStart: false, flatten: true }, pageSession).catch(() => undefined);
    await this.cdp.send('Log.disable', {}, pageSession).catch(() => undefined);
    if (this.network) await this.cdp.send('Network.disable', {}, pageSession).catch(() => undefined);
    await this.cdp.send('Runtime.disable', {}, pageSession).catch(() => undefined);
  }

  private async enable(sessionId: string, parent: string | undefined) {
    this.sessions.set(sessionId, parent);
    await this.cdp.send('Runtime.enable', {}, sessionId);
    await this.cdp.send('Log.enable', {}, sessionId).catch(() => undefined); // Not every worker has the Log domain.
    if (this.network) await this.cdp.send('Network.enable', {}, sessionId).catch(() => undefined);
    await this.cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true }, sessionId).catch(() => undefined);
  }

  private onEvent(method: string, params: Params, sessionId: string | undefined) {
    if (method === 'Target.attachedToTarget' && sessionId && this.sessions.has(sessionId)) {
      const child = params.sessionId as string;
      void this.enable(child, sessionId).catch(() => undefined);
      return;
    }
    if (!sessionId || !this.sessions.has(sessionId)) return;
    if (method === 'Target.detachedFromTarget') this.sessions.delete(params.sessionId as string);
    if (method === 'Runtime.consoleAPICalled' && (params.type === 'error' || params.type === 'assert')) {
      if ((params.timestamp as number) < this.since) return;
      const text = (params.args as RemoteObject[]).map((arg) => (arg.value !== undefined ? String(arg.value) : (arg.description ?? arg.type))).join(' ');
      this.errors.push(`console.${String(params.type)}: ${text}`);
    } else if (method === 'Runtime.exceptionThrown') {
      if ((params.timestamp as number) < this.since) return;
      const details = params.exceptionDetails as { text: string; exception?: RemoteObject; url?: string };
      this.errors.push(`uncaught: ${details.exception?.description ?? details.text}`);
    } else if (method === 'Log.entryAdded') {
      const entry = params.entry as { level: string; text: string; url?: string; timestamp: number; source: string };
      if (entry.level !== 'error' || entry.source === 'worker' || entry.timestamp < this.since) return;
      this.errors.push(`${entry.source}: ${entry.text}${entry.url ? ` (${entry.url})` : ''}`);
    } else if (method === 'Network.requestWillBeSent') {
      this.requests.set(params.requestId as string, (params.request as { url: string }).url);
    } else if (method === 'Network.loadingFinished') {
      this.requests.delete(params.requestId as string);
    } else if (method === 'Network.loadingFailed') {
      const id = params.requestId as string;
      const url = this.requests.get(id);
      this.requests.delete(id);
      if (params.canceled === true || this.failed.has(id)) return;
      this.failed.add(id);
      const reason = [params.errorText, params.blockedReason, (params.corsErrorStatus as { corsError?: string } | undefined)?.corsError].filter(Boolean).join(', ');
      this.errors.push(`request failed: ${reason}${url ? ` (${url})` : ''}`);
    } else if (method === 'Inspector.targetCrashed') {
      this.errors.push('crashed: the page or a worker crashed');
    }
  }
}
