import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CONCURRENCY } from '../../contract/transfer';
import { buildIfStale } from '../../scripts/build-if-stale.mjs';
import { adminToken, startServer } from '../../tests/e2e/harness';
import { startS3rverProcess } from '../transfer/s3rver-process';
import { AdminApi } from './api';
import { BatchBrowser, BatchStalled, type BrowserBatch } from './browser';
import { nodeUpload } from './node-client';
import { benchSize, SMOKE_FILES } from '../size';
import { FOLDER_NAME, seedFolder, type SeededFile } from './seed';

/**
 * Requests in flight for the Node client: the engine's limit for one task (the scheduler's per-upload budget,
 * `DEFAULT_CONCURRENCY.perUpload`, 3: the same figure as the copy pipeline's FILES_AT_ONCE and a folder upload's
 * lanes).
 */
const IN_FLIGHT = DEFAULT_CONCURRENCY.perUpload;
/** Files of the untimed first upload of each side on each mount: a fresh page, server and s3rver run cold. */
const WARM_UP_FILES = 30;
const MOUNTS = ['local', 's3'] as const;
type Mount = (typeof MOUNTS)[number];

const note = (text: string) => process.stderr.write(`[batch] ${text}\n`);
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

interface MountRun {
  nodeSeconds?: number;
  browser?: BrowserBatch;
  /** What went wrong (a stall, files missing on the server): the bench fails once everything is printed. */
  failures: string[];
}

/**
 * Compares what the server holds under `folder` with the seeded files; answers what is wrong, if anything. Listed
 * from the uploaded folder (`<folder>batch/`) down: s3rver (3.7) lists no sub-folder of a folder that has a
 * marker object (what mkdir makes on S3), so `<folder>` itself would look empty there.
 */
async function missingFiles(api: AdminApi, folder: string, seeded: SeededFile[]): Promise<string | undefined> {
  const held = new Map([...(await api.filesUnder(`${folder}${FOLDER_NAME}/`))].map(([path, size]) => [`${FOLDER_NAME}/${path}`, size]));
  const missing = seeded.filter((file) => !held.has(file.relativePath));
  const wrongSize = seeded.filter((file) => held.has(file.relativePath) && held.get(file.relativePath) !== file.size);
  if (missing.length === 0 && wrongSize.length === 0) return undefined;
  return (
    `${folder} holds ${held.size} files of ${seeded.length}: ${missing.length} missing (${missing.slice(0, 3).map((file) => file.relativePath).join(', ')}` +
    `${missing.length > 3 ? ', …' : ''}), ${wrongSize.length} of the wrong size`
  );
}

/**
 * A copy of the built app (dist/) for the bench's server (STATIC_DIR): in a working tree shared with others, another
 * process's build empties and rewrites dist/ meanwhile, and the page then fails to load its chunks (two sign-ins
 * timed out that way). Checked whole: index.html and every asset it names.
 */
function snapshotApp(into: string): string {
  for (let attempt = 1; ; attempt++) {
    rmSync(into, { recursive: true, force: true });
    cpSync('dist', into, { recursive: true });
    const index = existsSync(join(into, 'index.html')) ? readFileSync(join(into, 'index.html'), 'utf8') : '';
    const assets = [...index.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((match) => match[1] as string);
    if (index && assets.every((asset) => existsSync(join(into, asset)))) return into;
    if (attempt === 3) throw new Error('dist/ is incomplete (another build running?)');
    buildIfStale();
  }
}

/**
 * `npm run bench -- batch`: a power user's folder upload in the mount explorer against a small Node client. A
 * folder of BENCH_FILES (default 2000) text files of 1–4 KiB (mixed sizes) in 10 sub-folders is seeded in a temp
 * folder; then, on the LOCAL mount (`/local`) and on an s3rver mount (`/s3`, s3rver a process of its own), each into a
 * fresh folder:
 * - the Node client walks the folder and sends each file through `POST /api/admin/fs/upload` (a multipart form of
 *   `path` and `file`), 3 requests in flight (the engine's limit, `batch_requests_in_flight`), timed on the bench's
 *   clock from the walk's start to the last answer;
 * - Chromium (the quiet one: Playwright sets the page up and disconnects) opens `/mount-explorer/<mount>/<folder>`
 *   and the task manager panel, and the folder is given to the "Upload folder" input (`<input webkitdirectory>`,
 *   CDP DOM.setFileInputFiles); timed on the bench's clock from setting it to the page's answer that every new task
 *   row (`[data-task-status]`) is completed / partial / failed / cancelled, whether the folder is one row or a row
 *   per file. A run whose rows do not change for BENCH_BATCH_STALL_S (default 60) s, or that takes more than
 *   BENCH_BATCH_TIMEOUT_S (default the larger of 300 and BENCH_FILES / 4) s, is stopped with what the rows showed.
 * Both sides' files are then listed through the fs API (recursively, fresh from the storage) and compared with the
 * seeded ones (paths and sizes): a file missing fails the bench, after its figures are printed.
 * Before the timed runs each side uploads 30 files once per mount, untimed.
 * - `batch_local_ratio`, `batch_s3_ratio`: Node client's seconds ÷ browser's seconds, per mount (1 = as fast).
 * - `batch_files_per_s`: files per second of the browser's upload into the LOCAL mount (`batch_s3_files_per_s`: s3rver).
 * - `main_thread_long_tasks`: long tasks (> 50 ms) of the page's main thread from just before the folder was set to
 *   the end, both mounts' uploads together (a PerformanceObserver registered when the page loaded).
 * - `page_heap_mb`: the page's JS heap in use after the upload and a full GC (CDP Runtime.getHeapUsage `usedSize`),
 *   the larger of the two mounts'; `page_heap_before_gc_mb` before that GC.
 * - `resource_errors`: console errors, uncaught errors, Chromium's own error log and failed requests (e.g.
 *   net::ERR_INSUFFICIENT_RESOURCES) of the page and its workers during both uploads (see PageErrors); the failed
 *   requests are watched through the CDP Network domain, whose events cost Chromium a little per request:
 *   BENCH_BATCH_NETWORK=0 leaves them out (then failed requests of workers go uncounted).
 * - `batch_<mount>_node_s`, `batch_<mount>_browser_s`: the raw times.
 * Details on stderr: the page's own times, the long tasks, the rows, the errors.
 */
export async function batch() {
  const files = Math.max(1, Math.floor(benchSize(2000, SMOKE_FILES, 'BENCH_FILES')));
  const stallSeconds = Number(process.env.BENCH_BATCH_STALL_S ?? 60);
  const timeoutSeconds = Number(process.env.BENCH_BATCH_TIMEOUT_S ?? Math.max(300, files / 4));
  const limits = { stallSeconds, timeoutSeconds, network: process.env.BENCH_BATCH_NETWORK !== '0' };
  const folder = mkdtempSync(join(tmpdir(), 'clipstash-bench-batch-'));
  const staticDir = snapshotApp(join(folder, 'app'));
  const seeded = seedFolder(join(folder, 'timed'), files);
  const warmUpSeeded = seedFolder(join(folder, 'warm-up'), Math.min(files, WARM_UP_FILES));
  const s3 = await startS3rverProcess();
  const server = await startServer({ STATIC_DIR: staticDir });
  try {
    const token = await adminToken(server.url);
    const api = new AdminApi(server.url, token);
    await api.mountS3rver(s3, '/s3');
    note(`server at ${server.url}, s3rver mounted at /s3; ${files} files seeded in ${folder}`);
    const runs = {} as Record<Mount, MountRun>;

    for (const mount of MOUNTS) {
      const run: MountRun = { failures: [] };
      runs[mount] = run;
      note(`${mount}: starting Chromium and signing in`);
      const browser = await BatchBrowser.open(server.url);
      try {
        const node = (into: string, from: string) => nodeUpload({ serverUrl: server.url, token, folder: join(from, FOLDER_NAME), into, inFlight: IN_FLIGHT });
        const warmUp = async () => {
          await api.mkdir(`/${mount}/warm-up-browser/`);
          const inBrowser = await browser.upload(join(folder, 'warm-up', FOLDER_NAME), `/${mount}/warm-up-browser/`, limits);
          note(`${mount} warm-up: browser ${round(inBrowser.seconds)} s (${inBrowser.rows})`);
          await api.mkdir(`/${mount}/warm-up-node/`);
          note(`${mount} warm-up: node ${round(await node(`/${mount}/warm-up-node/`, join(folder, 'warm-up')))} s`);
          const problem = await missingFiles(api, `/${mount}/warm-up-browser/`, warmUpSeeded);
          if (problem) note(`${mount} warm-up: ${problem}`);
        };
        await warmUp().catch((error: unknown) => note(`${mount} warm-up failed: ${error instanceof Error ? error.message : String(error)}`));

        await api.mkdir(`/${mount}/node/`);
        run.nodeSeconds = await node(`/${mount}/node/`, join(folder, 'timed'));
        note(`${mount} node: ${round(run.nodeSeconds)} s for ${files} files, ${IN_FLIGHT} requests in flight`);
        const nodeProblem = await missingFiles(api, `/${mount}/node/`, seeded);
        if (nodeProblem) run.failures.push(`${mount}, Node client: ${nodeProblem}`);

        await api.mkdir(`/${mount}/browser/`);
        try {
          const inBrowser = await browser.upload(join(folder, 'timed', FOLDER_NAME), `/${mount}/browser/`, limits);
          run.browser = inBrowser;
          note(
            `${mount} browser: ${round(inBrowser.seconds)} s on the bench's clock; in the page ${round(inBrowser.pageSeconds)} s from the input event, ` +
              `which came ${Math.round(inBrowser.inputDelayMs)} ms after the folder was set; rows: ${inBrowser.rows}`,
          );
          note(`${mount} browser long tasks: ${inBrowser.longTasks.join(', ') || 'none'}`);
          note(`${mount} page heap: ${round(inBrowser.heapMb)} MiB after the upload, ${round(inBrowser.heapAfterGcMb)} MiB after a GC`);
          note(`${mount} page errors: ${inBrowser.errors.length}${inBrowser.errors.length ? `; the first: ${inBrowser.errors.slice(0, 5).join(' | ')}` : ''}`);
        } catch (error) {
          if (!(error instanceof BatchStalled)) throw error;
          run.failures.push(`${mount}, browser: ${error.message}`);
        }
        const browserProblem = await missingFiles(api, `/${mount}/browser/`, seeded);
        if (browserProblem) run.failures.push(`${mount}, browser: ${browserProblem}`);
      } finally {
        await browser.close();
      }
    }

    const complete = (mount: Mount) => runs[mount].failures.length === 0 && runs[mount].browser !== undefined && runs[mount].nodeSeconds !== undefined;
    const ratio = (mount: Mount) => (complete(mount) ? round((runs[mount].nodeSeconds as number) / (runs[mount].browser as BrowserBatch).seconds) : 'n/a');
    const filesPerS = (mount: Mount) => (complete(mount) ? round(files / (runs[mount].browser as BrowserBatch).seconds, 1) : 'n/a');
    const seconds = (value: number | undefined) => (value === undefined ? 'n/a' : round(value));
    const browsers = MOUNTS.map((mount) => runs[mount].browser).filter((run): run is BrowserBatch => run !== undefined);
    const all = browsers.length === MOUNTS.length;
    console.log(`batch_files: ${files}`);
    console.log(`batch_requests_in_flight: ${IN_FLIGHT}`);
    console.log(`batch_local_ratio: ${ratio('local')}`);
    console.log(`batch_s3_ratio: ${ratio('s3')}`);
    console.log(`batch_files_per_s: ${filesPerS('local')}`);
    console.log(`batch_s3_files_per_s: ${filesPerS('s3')}`);
    console.log(`main_thread_long_tasks: ${all ? browsers.reduce((sum, run) => sum + run.longTasks.length, 0) : 'n/a'}`);
    console.log(`page_heap_mb: ${all ? round(Math.max(...browsers.map((run) => run.heapAfterGcMb)), 1) : 'n/a'}`);
    console.log(`page_heap_before_gc_mb: ${all ? round(Math.max(...browsers.map((run) => run.heapMb)), 1) : 'n/a'}`);
    console.log(`resource_errors: ${all ? browsers.reduce((sum, run) => sum + run.errors.length, 0) : 'n/a'}`);
    for (const mount of MOUNTS) {
      console.log(`batch_${mount}_node_s: ${seconds(runs[mount].nodeSeconds)}`);
      console.log(`batch_${mount}_browser_s: ${seconds(runs[mount].browser?.seconds)}`);
    }
    const failures = MOUNTS.flatMap((mount) => runs[mount].failures);
    if (failures.length > 0) throw new Error(`the batch upload did not finish:\n- ${failures.join('\n- ')}`);
  } finally {
    // A clean-up that hangs would keep the bench from ever ending (and printing why it failed): each stop gets 20 s.
    await within(server.stop(), 20_000, () => {
      note(`the server (pid ${server.pid}) did not stop within 20 s of SIGTERM: killed`);
      process.kill(server.pid, 'SIGKILL');
    });
    await within(s3.stop(), 20_000, () => note('s3rver did not stop within 20 s'));
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Waits for `work`, at most `ms`; then calls `late` and goes on. */
async function within(work: Promise<unknown>, ms: number, late: () => void): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  const outcome = await Promise.race([work.then(() => 'done' as const), timedOut]);
  clearTimeout(timer);
  if (outcome === 'late') late();
}
