import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/e2e/harness';
import { CdpCalls, type CdpAnswer } from './cdp-calls';

type CdpEvent = { method: string; params: Record<string, unknown>; sessionId?: string };

/**
 * A DevTools client of its own over Chromium's pipe (`--remote-debugging-pipe`: JSON messages ended by a NUL),
 * with flat sessions: it enables no domain, so it costs the browser only what it asks.
 */
export class CdpPipe {
  private buffer = '';
  private readonly calls = new CdpCalls();
  private readonly listeners = new Set<(event: CdpEvent) => void>();
  private closed: Error | undefined;

  constructor(
    private readonly input: Writable,
    output: Readable,
  ) {
    // A pipe that breaks or ends (Chromium gone) fails what waits, and every later call, instead of throwing where
    // nobody catches it or leaving a call unanswered.
    const fail = (error: Error) => {
      this.closed = error;
      this.calls.failAll(error);
    };
    input.on('error', fail);
    output.on('error', fail);
    output.on('close', () => fail(new Error('Chromium closed its DevTools pipe')));
    output.setEncoding('utf8');
    output.on('data', (chunk: string) => {
      this.buffer += chunk;
      for (let end = this.buffer.indexOf('\0'); end >= 0; end = this.buffer.indexOf('\0')) {
        const message = JSON.parse(this.buffer.slice(0, end)) as CdpAnswer & Partial<CdpEvent>;
        this.buffer = this.buffer.slice(end + 1);
        if (message.id === undefined) for (const listener of this.listeners) listener(message as CdpEvent);
        else this.calls.answer(message);
      }
    });
  }

  send<T>(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<T> {
    if (this.closed) return Promise.reject(this.closed);
    return this.calls.call<T>((id) => this.input.write(`${JSON.stringify({ id, method, params, ...(sessionId && { sessionId }) })}\0`));
  }

  /** Calls `listener` with every event until the returned function is called. */
  on(listener: (event: CdpEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/**
 * Chromium as a person runs it, for measuring: Playwright connects over CDP to set a page up and disconnects
 * before the measured part, which then runs with no DevTools client but `cdp` (the pipe) attached. Playwright
 * enables the Network domain in the page and in every worker, and Chromium then reports each request's events to
 * it: on 2 shared cores that costs the measured copy CPU time a person's browser does not spend. Chromium runs with
 * the switches Playwright gives it (playwrightSwitches, less one: see there), so that the DevTools client is what
 * differs.
 */
export class QuietChromium {
  private constructor(
    private readonly process: ChildProcess,
    private readonly userDataDir: string,
    private readonly endpoint: string,
    readonly cdp: CdpPipe,
  ) {}

  static async launch(): Promise<QuietChromium> {
    const switches = await playwrightSwitches();
    const userDataDir = mkdtempSync(join(tmpdir(), 'clipstash-bench-chromium-'));
    const args = [...switches, '--lang=en-US', `--user-data-dir=${userDataDir}`, '--remote-debugging-port=0', '--remote-debugging-pipe', 'about:blank'];
    // Its own process group, so that close can end its helpers with it.
    const child = spawn(CHROMIUM_PATH, args, { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], detached: true });
    const cdp = new CdpPipe(child.stdio[3] as Writable, child.stdio[4] as Readable);
    try {
      return new QuietChromium(child, userDataDir, await devToolsEndpoint(child), cdp);
    } catch (error) {
      await stopChromium(child, cdp, userDataDir);
      throw error;
    }
  }

  /** Playwright, connected until `browser.close()` (which only disconnects it). */
  connect(): Promise<Browser> {
    return chromium.connectOverCDP(this.endpoint);
  }

  /** The page target whose URL starts with `prefix`. */
  async pageTarget(prefix: string): Promise<string> {
    const { targetInfos } = await this.cdp.send<{ targetInfos: { targetId: string; type: string; url: string }[] }>('Target.getTargets');
    const page = targetInfos.find((target) => target.type === 'page' && target.url.startsWith(prefix));
    if (!page) throw new Error(`no page at ${prefix}`);
    return page.targetId;
  }

  /** Evaluates `expression` (a promise) in the page target, attached only for it; answers its value. */
  async evaluate<T>(targetId: string, expression: string): Promise<T> {
    const { sessionId } = await this.cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
    try {
      const answer = await this.cdp.send<{ result: { value: T }; exceptionDetails?: { text: string; exception?: { description?: string } } }>(
        'Runtime.evaluate',
        { expression, awaitPromise: true, returnByValue: true },
        sessionId,
      );
      if (answer.exceptionDetails) throw new Error(answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text);
      return answer.result.value;
    } finally {
      await this.cdp.send('Target.detachFromTarget', { sessionId });
    }
  }

  async close() {
    await stopChromium(this.process, this.cdp, this.userDataDir);
  }
}

/** The browser's DevTools endpoint, from the line Chromium writes once it listens; rejects if it ends first. */
function devToolsEndpoint(child: ChildProcess): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let seen = '';
    const stderr = child.stderr as Readable;
    stderr.setEncoding('utf8');
    const onData = (chunk: string) => {
      seen = (seen + chunk).slice(-4096);
      const listening = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
      if (!listening?.[1]) return;
      // From now on its output is read and dropped: a full pipe would stall Chromium.
      stderr.off('data', onData);
      stderr.resume();
      resolve(listening[1]);
    };
    stderr.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`Chromium exited (${code}) before it listened: ${seen.slice(-500)}`)));
  });
}

/**
 * Asks Chromium to close (it writes its profile as it goes), ends its process group if it has not within 5 s,
 * then removes the profile. Never throws: it runs in the bench's clean-up, which must go on.
 */
async function stopChromium(child: ChildProcess, cdp: CdpPipe, userDataDir: string) {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await Promise.race([cdp.send('Browser.close').catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 5000))]);
    const killed = setTimeout(() => killGroup(child), 5000);
    await exited;
    clearTimeout(killed);
  }
  killGroup(child);
  try {
    // Its helper processes may still be writing into the profile for a moment.
    rmSync(userDataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  } catch (error) {
    process.stderr.write(`could not remove Chromium's profile ${userDataDir}: ${String(error)}\n`);
  }
}

/** Ends what is left of Chromium's process group (its helpers). */
function killGroup(child: ChildProcess) {
  try {
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Nothing left.
  }
}

/** /dev/shm this large holds a copy's blobs (Docker's default of 64 MiB does not). */
const ROOMY_SHM_BYTES = 1024 * 1024 * 1024;

/** Whether /dev/shm has room for Chromium's shared memory. */
function roomyShm(): boolean {
  try {
    const shm = statfsSync('/dev/shm');
    return shm.blocks * shm.bsize >= ROOMY_SHM_BYTES;
  } catch {
    return false;
  }
}

/**
 * The switches Playwright starts Chromium with (its defaults and CHROMIUM_ARGS), read from the command line of one it
 * starts, less its DevTools pipe, profile and start page, and less `--disable-dev-shm-usage` where /dev/shm is roomy:
 * Playwright passes it for containers whose /dev/shm is tiny, and Chromium then backs its shared memory (the bytes
 * of blobs and data pipes) with files in /tmp, on disk here, where a person's Chromium uses /dev/shm.
 */
async function playwrightSwitches(): Promise<string[]> {
  const server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  const dropped = new RegExp(`^--(remote-debugging-pipe|user-data-dir=|no-startup-window${roomyShm() ? '|disable-dev-shm-usage' : ''})`);
  try {
    const command = readFileSync(`/proc/${server.process().pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    return command.slice(1).filter((arg) => !dropped.test(arg) && !/^(about|data):/.test(arg));
  } finally {
    await server.close();
  }
}
