import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { buildIfStale } from '../scripts/build-if-stale.mjs';
import { ADMIN_PASSWORD, ADMIN_USERNAME, launchBrowser, loginAsAdmin, newPerson, startServer } from '../tests/e2e/harness';
import { startS3rver, type RunningS3rver } from '../tests/fixtures/s3rver';

const require = createRequire(import.meta.url);
const MiB = 1024 * 1024;
/** The worker's part size (its planner: 5 MiB up to 48.8 GiB) and the SDK's, for a like-for-like comparison. */
const PART_SIZE = 5 * MiB;
const QUEUE_SIZE = 3;

/** Details that are not the five figures go to stderr, so stdout stays `metric: value` lines. */
const note = (text: string) => process.stderr.write(`[transfer] ${text}\n`);
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * The dedicated worker's V8 heap through the Chrome DevTools Protocol: auto-attach from the page's session (not
 * flattened, so that this session can talk to the worker with Target.sendMessageToTarget), then
 * HeapProfiler.collectGarbage + Runtime.getHeapUsage in the worker. This is the worker's JavaScript heap; the
 * file's bytes live in Chromium's blob storage (browser process), outside it.
 */
class WorkerProbe {
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

/**
 * The browser side: the real app and worker engine. A File of `size` bytes is made in the page (64 different
 * random MiB repeated: nothing crosses from Node), dropped on /upload and uploaded to the default storage
 * (s3rver); timed from the click on Upload to the task row's `data-task-status="completed"`. Long tasks of
 * the page's main thread are counted by a PerformanceObserver installed before the app's code runs.
 */
async function browserUpload(serverUrl: string, s3: RunningS3rver, size: number) {
  const browser = await launchBrowser();
  try {
    const { context, page, errors } = await newPerson(browser, process.env.BENCH_REDUCED_MOTION ? { reducedMotion: 'reduce' } : {});
    await context.addInitScript(() => {
      const tasks: { start: number; duration: number }[] = [];
      (window as unknown as { __longTasks: typeof tasks }).__longTasks = tasks;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) tasks.push({ start: entry.startTime, duration: entry.duration });
      }).observe({ type: 'longtask', buffered: true });
    });
    await loginAsAdmin(page, serverUrl);
    const token = await page.evaluate(() => localStorage.getItem('admin_token'));
    const created = await page.request.post(`${serverUrl}/api/s3-configs`, {
      data: s3.configRequest({ name: 's3rver', is_default: true, is_public: true }),
      headers: { Authorization: `Bearer ${token}` },
    });
    if (created.status() !== 201) throw new Error(`storage config answered ${created.status()}`);

    await page.goto(`${serverUrl}/upload`);
    await page.getByTestId('drop-zone').waitFor();
    const probe = await WorkerProbe.attach(context, page);
    const dataTransfer = await page.evaluateHandle((bytes: number) => {
      const chunkSize = 1024 * 1024;
      const chunks = Array.from({ length: 64 }, () => {
        const chunk = new Uint8Array(chunkSize);
        for (let at = 0; at < chunkSize; at += 65536) crypto.getRandomValues(chunk.subarray(at, at + 65536));
        return chunk;
      });
      const parts: BlobPart[] = [];
      for (let at = 0, index = 0; at < bytes; at += chunkSize, index++) {
        const chunk = chunks[index % chunks.length] as Uint8Array<ArrayBuffer>;
        parts.push(bytes - at >= chunkSize ? chunk : chunk.subarray(0, bytes - at));
      }
      const transfer = new DataTransfer();
      transfer.items.add(new File(parts, 'bench.bin', { type: 'application/octet-stream' }));
      return transfer;
    }, size);
    await page.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer });
    await dataTransfer.dispose();
    const upload = page.getByRole('button', { name: 'Upload', exact: true });
    await upload.waitFor();

    // The engine's worker starts with the page (it rebuilds the task list from its journal).
    for (let waited = 0; !probe.attached && waited < 10_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    let heapBefore: number | undefined;
    try {
      heapBefore = await probe.heapAfterGc();
    } catch (error) {
      note(`worker heap not measurable: ${(error as Error).message}`);
    }

    let peakHeap = heapBefore ?? 0;
    const sampler = setInterval(() => {
      if (heapBefore === undefined) return;
      probe
        .call<{ usedSize: number }>('Runtime.getHeapUsage')
        .then((usage) => (peakHeap = Math.max(peakHeap, usage.usedSize)))
        .catch(() => undefined);
    }, 250);

    // What the page's main thread did meanwhile (CDP Performance metrics): task time, layouts, style recalcs.
    const metricsSession = await context.newCDPSession(page);
    await metricsSession.send('Performance.enable');
    const metrics = async () =>
      Object.fromEntries((await metricsSession.send('Performance.getMetrics')).metrics.map((metric) => [metric.name, metric.value]));
    const metricsBefore = await metrics();
    const pageStart = await page.evaluate(() => performance.now());
    const started = performance.now();
    await upload.click();
    await page.locator('li[data-task-status="completed"]').waitFor({ timeout: 0 });
    const seconds = (performance.now() - started) / 1000;
    const pageEnd = await page.evaluate(() => performance.now());
    clearInterval(sampler);
    const metricsAfter = await metrics();
    const delta = (name: string) => (metricsAfter[name] ?? 0) - (metricsBefore[name] ?? 0);
    note(
      `page main thread during the upload: ${Math.round(delta('TaskDuration') * 1000)} ms of tasks (script ${Math.round(delta('ScriptDuration') * 1000)} ms), ` +
        `${delta('LayoutCount')} layouts, ${delta('RecalcStyleCount')} style recalculations in ${round(seconds, 1)} s`,
    );

    const longTasks = await page.evaluate(
      ([from, to]) =>
        (window as unknown as { __longTasks: { start: number; duration: number }[] }).__longTasks.filter(
          (task) => task.start >= from && task.start <= to,
        ),
      [pageStart, pageEnd] as const,
    );
    const heapAfter = heapBefore === undefined ? undefined : await probe.heapAfterGc().catch(() => undefined);
    const files = (await (await page.request.get(`${serverUrl}/api/admin/files?limit=1`, { headers: { Authorization: `Bearer ${token}` } })).json()) as {
      data: { items: { size: number; filename: string }[] };
    };
    if (files.data.items[0]?.size !== size) throw new Error(`the share has ${files.data.items[0]?.size} bytes, not ${size}`);
    if (errors.length > 0) note(`page errors: ${errors.join('; ')}`);
    const described = longTasks.map((task) => `${Math.round(task.duration)} ms at +${Math.round(task.start - pageStart)} ms`);
    note(`browser: ${round(seconds)} s; long tasks during the upload: ${described.length > 0 ? described.join(', ') : 'none'}`);
    if (heapBefore !== undefined) {
      note(`worker heap: ${round(heapBefore / MiB)} MiB before, ${heapAfter === undefined ? '?' : round(heapAfter / MiB)} MiB after (both after GC), peak ${round(peakHeap / MiB)} MiB`);
    }
    await context.close();
    return {
      seconds,
      longTasks: longTasks.length,
      heapGrowthMb: heapBefore !== undefined && heapAfter !== undefined ? round((heapAfter - heapBefore) / MiB) : undefined,
    };
  } finally {
    await browser.close();
  }
}

/**
 * The reference: @aws-sdk/lib-storage `Upload` (5 MiB parts, queueSize 3) of the same number of bytes to the same
 * s3rver, from a worker thread (so that the client does not share s3rver's event loop, as the browser does not).
 * The body is a stream of the same 64 random MiB repeated. Checksums only where required, as the server's own
 * S3 client and the browser's presigned PUTs do.
 */
function sdkUpload(s3: RunningS3rver, size: number): Promise<number> {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { Readable } = require('node:stream');
    const { randomBytes } = require('node:crypto');
    const { S3Client } = require(workerData.clientS3);
    const { Upload } = require(workerData.libStorage);
    const { endpoint, region, bucket, accessKeyId, secretAccessKey, size, partSize, queueSize } = workerData;
    const chunkSize = 1024 * 1024;
    const chunks = Array.from({ length: 64 }, () => randomBytes(chunkSize));
    const body = Readable.from((function* () {
      for (let at = 0, index = 0; at < size; at += chunkSize, index++) {
        const chunk = chunks[index % chunks.length];
        yield size - at >= chunkSize ? chunk : chunk.subarray(0, size - at);
      }
    })());
    const client = new S3Client({ endpoint, region, forcePathStyle: true, credentials: { accessKeyId, secretAccessKey },
      requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' });
    const started = performance.now();
    new Upload({ client, params: { Bucket: bucket, Key: 'bench/sdk.bin', Body: body }, partSize, queueSize })
      .done()
      .then(() => parentPort.postMessage({ seconds: (performance.now() - started) / 1000 }))
      .catch((error) => parentPort.postMessage({ error: String(error && error.stack || error) }));
  `;
  const worker = new Worker(code, {
    eval: true,
    workerData: {
      clientS3: require.resolve('@aws-sdk/client-s3'),
      libStorage: require.resolve('@aws-sdk/lib-storage'),
      endpoint: s3.endpoint,
      region: s3.region,
      bucket: s3.bucket,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      size,
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
    },
  });
  return new Promise((resolve, reject) => {
    worker.once('message', (message: { seconds?: number; error?: string }) => {
      void worker.terminate();
      if (message.error !== undefined || message.seconds === undefined) reject(new Error(`SDK upload failed: ${message.error}`));
      else resolve(message.seconds);
    });
    worker.once('error', reject);
  });
}

/**
 * `upload_throughput_ratio`: the browser's worker engine against the AWS SDK's own multipart uploader, both
 * uploading BENCH_SIZE_MB (default 1024) MiB to the same s3rver in 5 MiB parts, 3 at a time. Throughputs in MiB/s.
 * `main_thread_long_tasks`: long tasks (> 50 ms) on the page's main thread while the upload ran.
 * `worker_heap_growth_mb`: the transfer worker's JS heap after the upload minus before (each after a GC), via CDP.
 * Details on stderr: long tasks with their time, the page main thread's task time, layouts and style recalculations,
 * the worker's heap before/after/peak. `BENCH_REDUCED_MOTION=1` runs the page with prefers-reduced-motion (no CSS
 * transitions), to tell rendering cost from transfer cost.
 */
export async function transfer() {
  const sizeMb = Number(process.env.BENCH_SIZE_MB ?? 1024);
  const size = Math.round(sizeMb * MiB);
  buildIfStale();
  const s3 = await startS3rver();
  const server = await startServer();
  try {
    const login = await fetch(`${server.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: ADMIN_USERNAME, password: ADMIN_PASSWORD }),
    });
    const { data } = (await login.json()) as { data: { token: string } };
    const settings = await fetch(`${server.url}/api/admin/system-settings`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${data.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ max_upload_size: sizeMb + 1 }),
    });
    if (settings.status !== 200) throw new Error(`settings answered ${settings.status}`);

    const browser = await browserUpload(server.url, s3, size);
    const sdkSeconds = await sdkUpload(s3, size);
    note(`sdk: ${round(sdkSeconds)} s`);
    const workerMbS = size / MiB / browser.seconds;
    const sdkMbS = size / MiB / sdkSeconds;
    console.log(`upload_throughput_ratio: ${round(workerMbS / sdkMbS)}`);
    console.log(`worker_upload_mb_s: ${round(workerMbS, 1)}`);
    console.log(`sdk_upload_mb_s: ${round(sdkMbS, 1)}`);
    console.log(`main_thread_long_tasks: ${browser.longTasks}`);
    console.log(`worker_heap_growth_mb: ${browser.heapGrowthMb ?? 'n/a'}`);
  } finally {
    await server.stop();
    await s3.stop();
  }
}
