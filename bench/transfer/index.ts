import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminToken, setMaxUploadSizeMb, startServer } from '../../tests/e2e/harness';
import { BrowserUploader } from './browser';
import { generateFile } from './file';
import { benchSize, SMOKE_FILE_MB } from '../size';
import { startS3rverProcess } from './s3rver-process';
import { sdkUpload } from './sdk';
import { describeWorkerHeap } from './worker-probe';

const MiB = 1024 * 1024;
/** The worker's part size (its planner: 5 MiB up to 48.8 GiB) and parts in flight, given to the SDK as well. */
const PART_SIZE = 5 * MiB;
const QUEUE_SIZE = 3;
/** The untimed first upload of each side: a fresh browser, a fresh SDK thread and a fresh s3rver run cold. */
const WARM_UP_MB = 64;

/** Details that are not the six figures go to stderr, so stdout stays `metric: value` lines. */
const note = (text: string) => process.stderr.write(`[transfer] ${text}\n`);
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/**
 * `npm run bench -- transfer`: the browser's worker engine against the AWS SDK's own multipart uploader, both
 * uploading the same generated file of BENCH_SIZE_MB (default 1024) MiB from disk to the same s3rver (a process of
 * its own) in 5 MiB parts, 3 at a time. After one untimed warm-up upload each, BENCH_ROUNDS (default 3) rounds
 * alternate browser and SDK; throughputs (MiB/s) are the medians of the rounds, as single runs on 2 shared cores
 * vary by ±15 %.
 * - `upload_throughput_ratio`: worker MiB/s over SDK MiB/s.
 * - `main_thread_long_tasks`: long tasks (> 50 ms) on the page's main thread during the timed uploads, the total
 *   over all rounds.
 * - `main_thread_ms_per_gib`: the page main thread's busy time (CDP `TaskDuration`: script, style, layout, paint)
 *   during the timed uploads, over all rounds, per GiB uploaded.
 * - `worker_heap_growth_mb`: the transfer worker's JS heap after the last round minus before the first (each after
 *   a GC), through CDP.
 * Details on stderr: each round's time and phases (parts phase, parts in flight, complete), the page main thread's
 * work, long tasks, the worker's heap before/after/peak. `BENCH_REDUCED_MOTION=1` runs the page with
 * prefers-reduced-motion, to tell rendering cost from transfer cost; `BENCH_TRACE=1` traces the page during each
 * browser round and lists its main thread's tasks by kind (tracing adds work of its own to the figures).
 */
export async function transfer() {
  const sizeMb = benchSize(1024, SMOKE_FILE_MB, 'BENCH_SIZE_MB');
  const rounds = Math.max(1, benchSize(3, 1, 'BENCH_ROUNDS'));
  const size = Math.round(sizeMb * MiB);
  const warmUpSize = Math.min(size, WARM_UP_MB * MiB);
  const folder = mkdtempSync(join(tmpdir(), 'clipstash-bench-'));
  const path = join(folder, 'bench.bin');
  const warmUpPath = join(folder, 'warm-up.bin');
  await generateFile(path, size);
  await generateFile(warmUpPath, warmUpSize);
  const s3 = await startS3rverProcess();
  const server = await startServer();
  let browser: BrowserUploader | undefined;
  try {
    await setMaxUploadSizeMb(server.url, await adminToken(server.url), sizeMb + 1);

    browser = await BrowserUploader.open(server.url, s3);
    await browser.upload(warmUpPath, warmUpSize);
    await sdkUpload(s3, warmUpPath, PART_SIZE, QUEUE_SIZE);

    const heapBefore = await browser.workerHeap();
    const workerRates: number[] = [];
    const sdkRates: number[] = [];
    const longTasks: string[] = [];
    let mainThreadMs = 0;
    for (let index = 1; index <= rounds; index++) {
      const inBrowser = await browser.upload(path, size);
      note(`round ${index} browser: ${round(inBrowser.seconds)} s; ${inBrowser.phases}`);
      note(`round ${index} page main thread: ${inBrowser.mainThread}; long tasks: ${inBrowser.longTasks.join(', ') || 'none'}`);
      for (const line of inBrowser.trace) note(`round ${index} trace: ${line}`);
      const bySdk = await sdkUpload(s3, path, PART_SIZE, QUEUE_SIZE);
      note(`round ${index} sdk: ${round(bySdk.seconds)} s; ${bySdk.phases}`);
      workerRates.push(sizeMb / inBrowser.seconds);
      sdkRates.push(sizeMb / bySdk.seconds);
      longTasks.push(...inBrowser.longTasks);
      mainThreadMs += inBrowser.mainThreadMs;
    }
    const heapAfter = heapBefore === undefined ? undefined : await browser.workerHeap();
    note(describeWorkerHeap(heapBefore, heapAfter, browser.workerHeapPeak));

    const workerMbS = median(workerRates);
    const sdkMbS = median(sdkRates);
    console.log(`upload_throughput_ratio: ${round(workerMbS / sdkMbS)}`);
    console.log(`worker_upload_mb_s: ${round(workerMbS, 1)}`);
    console.log(`sdk_upload_mb_s: ${round(sdkMbS, 1)}`);
    console.log(`main_thread_long_tasks: ${longTasks.length}`);
    console.log(`main_thread_ms_per_gib: ${Math.round(mainThreadMs / ((rounds * size) / (1024 * MiB)))}`);
    console.log(`worker_heap_growth_mb: ${heapBefore !== undefined && heapAfter !== undefined ? round((heapAfter - heapBefore) / MiB) : 'n/a'}`);
  } finally {
    await browser?.close();
    await server.stop();
    await s3.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}
