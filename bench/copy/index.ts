import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { adminToken, localStorageRoot, setMaxUploadSizeMb, startServer } from '../../tests/e2e/harness';
import { S3RVER_CREDENTIALS, S3RVER_REGION } from '../../tests/fixtures/s3rver';
import { cpuSecondsByGroup, describeCpuBetween } from '../cpu-time';
import { chromiumResidentBytes, samplePeak } from '../processes';
import { median, MiB } from '../measure';
import { benchSize, SMOKE_FILE_MB, SMOKE_FILES } from '../size';
import { generateFile } from '../transfer/file';
import { startS3rverProcess } from '../transfer/s3rver-process';
import { describeWorkerHeap } from '../transfer/worker-probe';
import { BrowserCopier } from './browser';
import { SdkCopier } from './sdk';

/**
 * The engine's part size for a copy (the server's FS_PART_BYTES), its requests in flight per task (the default
 * parts per upload) and files copied at once: the SDK gets the same.
 */
const PART_SIZE = 5 * MiB;
const QUEUE_SIZE = 3;
const FILES_AT_ONCE = 3;
/** The untimed first copy of each side: a fresh browser, SDK thread and s3rver run cold. */
const warmUpSize = () => ({ files: benchSize(4, 1), bigMb: benchSize(16, 1) });

/** Runs a copy and says what CPU time each process group used meanwhile (where the time goes on 2 shared cores). */
async function withCpu<T>(copy: () => Promise<T>): Promise<{ result: T; cpu: string }> {
  const before = cpuSecondsByGroup();
  const result = await copy();
  return { result, cpu: describeCpuBetween(before, cpuSecondsByGroup()) };
}

const note = (text: string) => process.stderr.write(`[copy] ${text}\n`);
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const names = (count: number) => Array.from({ length: count }, (_, index) => `file-${String(index).padStart(3, '0')}.bin`);

/** The source tree, written straight into the LOCAL storage's folder: `<name>/small/file-NNN.bin` (1 MiB each) and `<name>/big.bin`. */
async function seed(root: string, name: string, files: number, bigSize: number) {
  mkdirSync(join(root, name, 'small'), { recursive: true });
  for (const file of names(files)) writeFileSync(join(root, name, 'small', file), randomBytes(MiB));
  await generateFile(join(root, name, 'big.bin'), bigSize);
}

/**
 * `npm run bench -- copy`: the mount explorer's copy from the LOCAL mount to an s3rver mount (s3rver a process of
 * its own) through the worker engine in Chromium, against @aws-sdk/lib-storage from Node (download, then upload),
 * both in 5 MiB parts, 3 requests in flight, 3 files at a time. Each round copies a folder of BENCH_FILES (default 200)
 * files of 1 MiB, then one file of BENCH_SIZE_MB (default 512) MiB, by each side in turn (the browser first in odd
 * rounds, the SDK in even ones: with the default 3 rounds the browser goes first twice); after one small untimed
 * warm-up each, BENCH_ROUNDS (default 3) rounds, medians taken (single runs on 2 shared cores vary by ±15 %).
 * - `copy_throughput_ratio`: the worker's MiB/s over the SDK's (both copies of a round together).
 * - `copy_files_per_s`: files of the folder copied per second by the worker.
 * - `main_thread_long_tasks`: long tasks (> 50 ms) on the page's main thread during the timed copies.
 * - `worker_heap_growth_mb`: the transfer worker's highest heap (with its ArrayBuffers) sampled during the copies
 *   minus its heap before them (after a GC), through CDP; `worker_heap_limit_mb` is parts in flight × part size + 32.
 * - `browser_memory_growth_mb`: Chromium's resident memory (all its processes) at its highest during the rounds, less
 *   before them: what the copy holds outside the worker's heap (blobs, request bodies), which must not grow with
 *   the bytes copied.
 * Details on stderr: each copy's time, the page's long tasks, the task rows, the worker's heap.
 */
export async function copy() {
  const bigMb = benchSize(512, SMOKE_FILE_MB, 'BENCH_SIZE_MB');
  const files = Math.max(1, benchSize(200, SMOKE_FILES, 'BENCH_FILES'));
  const rounds = Math.max(1, benchSize(3, 1, 'BENCH_ROUNDS'));
  const warmUp = warmUpSize();
  const bigSize = Math.round(bigMb * MiB);
  const totalMb = files + bigSize / MiB;
  const s3 = await startS3rverProcess();
  const server = await startServer();
  let browser: BrowserCopier | undefined;
  let sdk: SdkCopier | undefined;
  try {
    const token = await adminToken(server.url);
    await setMaxUploadSizeMb(server.url, token, bigMb + 1);
    const root = await localStorageRoot(server, token);
    await seed(root, 'warm-up', warmUp.files, warmUp.bigMb * MiB);
    await seed(root, 'bench', files, bigSize);
    // A file written into the storage by hand gets its ETag (an MD5 of all its bytes) when it is first looked at,
    // then kept: 1.3 s for 512 MiB and about 0.7 s for the 200 files, which the first copy to look at them paid
    // alone. Files uploaded through the app have theirs from the start: all are hashed here, before any timing.
    const seeded = (name: string, count: number) => [...names(count).map((file) => `/local/${name}/small/${file}`), `/local/${name}/big.bin`];
    for (const path of [...seeded('warm-up', warmUp.files), ...seeded('bench', files)]) {
      const stat = await fetch(`${server.url}/api/admin/fs/get?path=${encodeURIComponent(path)}`, { headers: { Authorization: `Bearer ${token}` } });
      if (stat.status !== 200) throw new Error(`fs/get of ${path} answered ${stat.status}`);
    }
    const mkdir = async (path: string) => {
      const answer = await fetch(`${server.url}/api/admin/fs/mkdir`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ path }),
      });
      if (answer.status >= 300) throw new Error(`mkdir ${path} answered ${answer.status}`);
    };

    browser = await BrowserCopier.open(server.url, s3);
    sdk = new SdkCopier({ serverUrl: server.url, token, endpoint: s3.endpoint, region: S3RVER_REGION, bucket: s3.bucket, ...S3RVER_CREDENTIALS, partSize: PART_SIZE, queueSize: QUEUE_SIZE, filesAtOnce: FILES_AT_ONCE });
    const job = (source: string, prefix: string, count: number) => [
      ...names(count).map((name) => ({ path: `/local/${source}/small/${name}`, key: `${prefix}/small/${name}` })),
      { path: `/local/${source}/big.bin`, key: `${prefix}/big.bin` },
    ];
    const browserRound = async (source: string, into: string, count: number) => {
      await mkdir(`/s3/${into}/`);
      const { result: small, cpu: smallCpu } = await withCpu(() => browser!.copy(source, 'small', into));
      const { result: big, cpu: bigCpu } = await withCpu(() => browser!.copy(source, 'big.bin', into));
      if (!small.row.includes(`${count} done, 0 skipped, 0 failed`) || !big.row.includes('1 done, 0 skipped, 0 failed')) {
        throw new Error(`the copy did not copy everything: ${small.row} / ${big.row}`);
      }
      return { small: { ...small, cpu: smallCpu }, big: { ...big, cpu: bigCpu } };
    };
    const sdkRound = async (source: string, prefix: string, count: number) => {
      const [smallJob, bigJob] = [job(source, prefix, count).slice(0, count), job(source, prefix, count).slice(count)];
      const small = await withCpu(() => sdk!.copy(smallJob));
      const big = await withCpu(() => sdk!.copy(bigJob));
      return { small: { seconds: small.result, cpu: small.cpu }, big: { seconds: big.result, cpu: big.cpu } };
    };

    await browserRound('warm-up', 'warm-up', warmUp.files);
    await sdkRound('warm-up', 'sdk-warm-up', warmUp.files);

    const heapBefore = await browser.workerHeap();
    const memoryBefore = chromiumResidentBytes();
    const memoryPeak = samplePeak(chromiumResidentBytes);
    const workerRates: number[] = [];
    const sdkRates: number[] = [];
    const filesPerS: number[] = [];
    const longTasks: string[] = [];
    for (let index = 1; index <= rounds; index++) {
      // The side that goes first in a round also meets what is still cold after the warm-ups (the first round's
      // first copy was the slowest of its kind in most runs): odd rounds start with the browser, even ones with the SDK.
      const sdkFirst = index % 2 === 0 ? await sdkRound('bench', `sdk-${index}`, files) : undefined;
      const inBrowser = await browserRound('bench', `round-${index}`, files);
      const bySdk = sdkFirst ?? (await sdkRound('bench', `sdk-${index}`, files));
      note(`round ${index} browser: ${round(inBrowser.small.seconds)} s for ${files} files, ${round(inBrowser.big.seconds)} s for ${bigMb} MiB`);
      note(`round ${index} browser cpu: ${inBrowser.small.cpu}; then ${inBrowser.big.cpu}`);
      note(`round ${index} sdk: ${round(bySdk.small.seconds)} s for ${files} files, ${round(bySdk.big.seconds)} s for ${bigMb} MiB`);
      note(`round ${index} sdk cpu: ${bySdk.small.cpu}; then ${bySdk.big.cpu}`);
      const tasks = [...inBrowser.small.longTasks, ...inBrowser.big.longTasks];
      note(`round ${index} page long tasks: ${tasks.join(', ') || 'none'}`);
      note(`round ${index} chromium resident: ${round(chromiumResidentBytes() / MiB, 0)} MiB (${round(memoryBefore / MiB, 0)} MiB before the rounds)`);
      workerRates.push(totalMb / (inBrowser.small.seconds + inBrowser.big.seconds));
      sdkRates.push(totalMb / (bySdk.small.seconds + bySdk.big.seconds));
      filesPerS.push(files / inBrowser.small.seconds);
      longTasks.push(...tasks);
    }
    const heapAfter = heapBefore === undefined ? undefined : await browser.workerHeap();
    const peak = browser.workerHeapPeak;
    const memoryGrowth = memoryPeak() - memoryBefore;
    note(describeWorkerHeap(heapBefore, heapAfter, peak));

    const workerMbS = median(workerRates);
    const sdkMbS = median(sdkRates);
    console.log(`copy_throughput_ratio: ${round(workerMbS / sdkMbS)}`);
    console.log(`worker_copy_mb_s: ${round(workerMbS, 1)}`);
    console.log(`sdk_copy_mb_s: ${round(sdkMbS, 1)}`);
    console.log(`copy_files_per_s: ${round(median(filesPerS), 1)}`);
    console.log(`main_thread_long_tasks: ${longTasks.length}`);
    console.log(`worker_heap_growth_mb: ${heapBefore !== undefined && peak > 0 ? round(Math.max(0, peak - heapBefore) / MiB) : 'n/a'}`);
    console.log(`worker_heap_limit_mb: ${(QUEUE_SIZE * PART_SIZE) / MiB + 32}`);
    console.log(`browser_memory_growth_mb: ${round(memoryGrowth / MiB, 0)}`);
  } finally {
    await browser?.close();
    await sdk?.close();
    await server.stop();
    await s3.stop();
  }
}
