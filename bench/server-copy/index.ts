import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { isJobEnded, type Job } from '../../contract/jobs';
import { planUpload } from '../../contract/parts';
import { sqlitePath } from '../../server/db/database';
import { createSecretBox } from '../../server/security/secret-box';
import { forEachAtOnce } from '../../server/storage/at-once';
import { createLocalDriver } from '../../server/storage/local';
import { MultipartUploadNotFoundError, type StoredPart } from '../../server/storage/driver';
import { PARTS_AT_ONCE, type CopyCheckpoint } from '../../server/storage/object-copy';
import { createS3Driver } from '../../server/storage/s3';
import { adminToken, localStorageRoot, setMaxUploadSizeMb, startServer, type RunningServer } from '../../tests/e2e/harness';
import { adminApi } from '../../tests/e2e/mounts';
import { S3RVER_CREDENTIALS, S3RVER_REGION, s3rverConfigRequest } from '../../tests/fixtures/s3rver';
import { seedFolder, FOLDER_NAME } from '../batch/seed';
import { MiB } from '../measure';
import { residentBytes } from '../processes';
import { benchSize, SMOKE_FILE_MB, SMOKE_FILES } from '../size';
import { generateFile } from '../transfer/file';
import { startS3rverProcess, type S3rverProcess } from '../transfer/s3rver-process';
import { JobFeed } from './job-feed';
import type { CopyFile, CopyJob, CopyResult, Place } from './sdk';

const note = (text: string) => process.stderr.write(`[server-copy] ${text}\n`);
const roundTo = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Where the sources are, in the LOCAL storage and as mount paths. */
const BENCH = 'bench';
const BIG = 'big.bin';
/** The server's RSS is sampled this often during a timed job; the resume's record is read this often. */
const POLL_MS = 20;
/** A short lease: the server started again after the kill takes its job back within seconds. */
const SERVER_ENV = { JOB_LEASE_SECONDS: '5' };

/** Runs the SDK's side of a copy in a process of its own (sdk.ts), as the server is one. */
async function runSdk(job: CopyJob, jobFile: string): Promise<CopyResult> {
  const runner = fileURLToPath(new URL('./sdk.ts', import.meta.url));
  // In a file: 2,000 files' keys are more than a command line may carry.
  writeFileSync(jobFile, JSON.stringify(job));
  const child = spawn(process.execPath, ['--import', 'tsx', runner, jobFile], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let result: CopyResult | undefined;
  for await (const line of createInterface({ input: child.stdout })) {
    if (line.startsWith('result ')) result = JSON.parse(line.slice('result '.length)) as CopyResult;
  }
  const code = await exited;
  if (code !== 0 || !result) throw new Error(`the ${job.side} copy exited with ${code}`);
  return result;
}

const s3Place = (s3: S3rverProcess): Place => ({ type: 'S3', endpoint: s3.endpoint, bucket: s3.bucket });
const s3Driver = (s3: S3rverProcess) =>
  createS3Driver({ endpoint: s3.endpoint, region: S3RVER_REGION, bucket: s3.bucket, ...S3RVER_CREDENTIALS, pathStyle: true, folder: '' });

/** The Clipstash server of `npm start` on its own data folder, as the admin sees it through the API. */
class BenchServer {
  private constructor(
    readonly server: RunningServer,
    readonly api: ReturnType<typeof adminApi>,
    readonly token: string,
  ) {}

  static async start(dataDir: string): Promise<BenchServer> {
    const server = await startServer(SERVER_ENV, dataDir);
    const token = await adminToken(server.url);
    return new BenchServer(server, adminApi(server.url, token), token);
  }

  async call<T>(path: string, init: RequestInit = {}, status = 200): Promise<T> {
    const answer = await this.api(path, init);
    if (answer.status !== status) throw new Error(`${init.method ?? 'GET'} ${path} answered ${answer.status}: ${await answer.text()}`);
    return ((await answer.json()) as { data: T }).data;
  }

  /** A bucket as a storage config, mounted at `mountPath`. */
  async mount(s3: S3rverProcess, mountPath: string, name: string) {
    const created = await fetch(`${this.server.url}/api/s3-configs`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(s3rverConfigRequest(s3.endpoint, s3.bucket, { name })),
    });
    if (created.status !== 201) throw new Error(`the storage config answered ${created.status}`);
    const config = ((await created.json()) as { data: { id: string } }).data;
    await this.call('mounts', { method: 'POST', body: JSON.stringify({ name, storage_type: 'S3', storage_config_id: config.id, mount_path: mountPath }) }, 201);
  }

  /** Starts a copy job of `items`; answers its id. */
  async startCopy(items: { sourcePath: string; targetPath: string }[]): Promise<string> {
    const job = await this.call<Job>('jobs', { method: 'POST', body: JSON.stringify({ type: 'copy', items, onConflict: 'fail' }) }, 201);
    return job.id;
  }

  /** Reads the job until it ends (`each` called at every read); it must end completed. */
  async untilEnded(id: string, each: () => void = () => undefined): Promise<Job> {
    for (;;) {
      each();
      const job = await this.call<Job>(`jobs/${id}`);
      if (isJobEnded(job.status)) {
        if (job.status !== 'completed') throw new Error(`job ${id} ended ${job.status}: ${JSON.stringify(job.failures.slice(0, 3))}`);
        return job;
      }
      await sleep(POLL_MS);
    }
  }

  /**
   * A copy job timed from its POST to the event that says it ended (the job's event stream, as the browser follows
   * it), the server's RSS sampled from /proc meanwhile.
   */
  async timedCopy(items: { sourcePath: string; targetPath: string }[]): Promise<{ seconds: number; planSeconds: number; peakRssMb: number }> {
    const feed = await JobFeed.open(this.server.url, this.token);
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, residentBytes(this.server.pid) / MiB)), POLL_MS);
    try {
      const started = performance.now();
      const id = await this.startCopy(items);
      // The POST answers once the job is planned (its sources listed, its limits checked, its items recorded).
      const planSeconds = (performance.now() - started) / 1000;
      const job = await feed.untilEnded(id);
      const seconds = (performance.now() - started) / 1000;
      if (job.status !== 'completed') throw new Error(`job ${id} ended ${job.status}: ${JSON.stringify(job.failures.slice(0, 3))}`);
      return { seconds, planSeconds, peakRssMb: peak };
    } finally {
      clearInterval(sampler);
      await feed.close();
    }
  }
}

/** The checkpoint of the job's (one) file as its record holds it, read from the server's SQLite database. */
function checkpointOf(dataDir: string, jobId: string): CopyCheckpoint | undefined {
  const db = new Database(sqlitePath(dataDir), { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare(`SELECT checkpoint FROM job_items WHERE job_id = ? AND kind = 'file'`).get(jobId) as { checkpoint: string | null } | undefined;
    return row?.checkpoint ? (JSON.parse(row.checkpoint) as CopyCheckpoint) : undefined;
  } finally {
    db.close();
  }
}

/**
 * `npm run bench -- server-copy`: copy jobs run by a Clipstash server process (`POST /api/admin/jobs`), against
 * the AWS SDK from Node doing the same copy; the resume of a job after the server's kill -9. See bench/README.md.
 */
export async function serverCopy() {
  const bigMb = benchSize(2048, SMOKE_FILE_MB, 'BENCH_SIZE_MB');
  const count = Math.max(1, benchSize(2000, SMOKE_FILES, 'BENCH_FILES'));
  // Whoever copies first into a cold s3rver is slowest: each side copies ROUNDS times, alternating, and keeps its best.
  const rounds = Math.max(1, benchSize(2, 1, 'BENCH_ROUNDS'));
  const bigSize = Math.round(bigMb * MiB);
  const work = mkdtempSync(join(tmpdir(), 'clipstash-server-copy-'));
  const dataDir = join(work, 'data');
  const jobFile = join(work, 'job.json');
  const [a, b] = await Promise.all([startS3rverProcess(), startS3rverProcess()]);
  let bench = await BenchServer.start(dataDir);
  try {
    await setMaxUploadSizeMb(bench.server.url, bench.token, bigMb + 1);
    // Two mounts of the first bucket (two storage configs of one endpoint and principal: the service copies
    // between them) and one of the second.
    await bench.mount(a, '/a', 'first');
    await bench.mount(a, '/a-again', 'first again');
    await bench.mount(b, '/b', 'second');
    const root = await localStorageRoot(bench.server, bench.token);
    const small = seedFolder(join(root, BENCH), count);
    await generateFile(join(root, BENCH, BIG), bigSize);
    // The MD5 of every source file, untimed: LOCAL keeps it beside each file once made (the server then reads it
    // rather than hashing 2 GiB inside the job), and s3rver's ETag of every object, multipart ones too, is the MD5
    // of the bytes it stored, so each copy is checked against it.
    const local = createLocalDriver({ root, configId: 'bench', secrets: createSecretBox(randomBytes(32)), now: () => new Date() });
    const md5 = new Map<string, string>();
    await forEachAtOnce([...small.map((file) => file.relativePath), BIG], 8, async (relative) => {
      md5.set(relative, (await local.head(`${BENCH}/${relative}`))?.etag ?? '');
    });
    const checked = async (s3: S3rverProcess, prefix: string) => {
      const stored = new Map((await s3Driver(s3).listTree(prefix)).objects.map((object) => [object.key.slice(prefix.length + 1), object.etag]));
      const wrong = [...md5.keys()].filter((key) => stored.get(key) !== md5.get(key));
      if (wrong.length > 0) throw new Error(`${wrong.length} copies under ${prefix} differ from their source (first: ${wrong[0]})`);
    };
    const sdkFiles = (fromPrefix: string, toPrefix: string, relatives: { relativePath: string; size: number }[]): CopyFile[] =>
      relatives.map(({ relativePath, size }) => ({ fromKey: `${fromPrefix}/${relativePath}`, toKey: `${toPrefix}/${relativePath}`, size }));
    const warmUpFolder = `${FOLDER_NAME}/sub-00/`;
    // The server's peak RSS in each way's first round (as runs before rounds measured it), and in the later ones.
    const firstPeaks: number[] = [];
    const laterPeaks: number[] = [];
    const sdkPeaks: number[] = [];

    /**
     * One way: a warm-up folder copied by a job, untimed; then rounds of the job (the folder, then the big file) and
     * the SDK the same way (and CopyObject inside one endpoint), the job first in odd rounds and last in even ones.
     */
    const way = async (name: string, from: { mount: string; place: Place; prefix: string }, to: { mount: string; s3: S3rverProcess }, sdkSides: CopyJob['side'][]) => {
      await bench.timedCopy([{ sourcePath: `${from.mount}/${from.prefix}/${warmUpFolder}`, targetPath: `${to.mount}/warm-up/${name}/job/` }]);
      // Each side's best seconds for [the folder, the big file] over the rounds.
      const best = new Map<string, number[]>();
      const keep = (side: string, seconds: number[]) => best.set(side, seconds.map((value, group) => Math.min(value, best.get(side)?.[group] ?? Infinity)));
      const jobRound = async (round: number, suffix: string) => {
        const jobPrefix = `${name}/job${suffix}`;
        const folder = await bench.timedCopy([{ sourcePath: `${from.mount}/${from.prefix}/${FOLDER_NAME}/`, targetPath: `${to.mount}/${jobPrefix}/` }]);
        const big = await bench.timedCopy([{ sourcePath: `${from.mount}/${from.prefix}/${BIG}`, targetPath: `${to.mount}/${jobPrefix}/` }]);
        await checked(to.s3, jobPrefix);
        (round === 1 ? firstPeaks : laterPeaks).push(folder.peakRssMb, big.peakRssMb);
        keep('job', [folder.seconds, big.seconds]);
        note(`${name} job: ${roundTo(folder.seconds)} s for ${count} files (${roundTo(folder.planSeconds)} s of them the plan), ${roundTo(big.seconds)} s for ${bigMb} MiB (${roundTo(bigMb / big.seconds, 1)} MiB/s), server RSS ≤ ${roundTo(Math.max(folder.peakRssMb, big.peakRssMb), 0)} MiB`);
      };
      const sdkRound = async (suffix: string) => {
        for (const side of sdkSides) {
          const prefix = `${name}/${side}${suffix}`;
          const warmUp = sdkFiles(from.prefix, `warm-up/${prefix}`, small.filter((file) => file.relativePath.startsWith(warmUpFolder)));
          const groups = [sdkFiles(from.prefix, prefix, small), sdkFiles(from.prefix, prefix, [{ relativePath: BIG, size: bigSize }])];
          const result = await runSdk({ side, from: from.place, to: s3Place(to.s3), warmUp, groups }, jobFile);
          await checked(to.s3, prefix);
          keep(side, result.seconds);
          sdkPeaks.push(result.peakRssMb);
          const [smallS = 0, bigS = 0] = result.seconds;
          note(`${name} ${side}: ${roundTo(smallS)} s for ${count} files, ${roundTo(bigS)} s for ${bigMb} MiB (${roundTo(bigMb / bigS, 1)} MiB/s), peak RSS ${roundTo(result.peakRssMb, 0)} MiB`);
        }
      };
      for (let round = 1; round <= rounds; round += 1) {
        const suffix = round === 1 ? '' : `-${round}`;
        if (round % 2 === 1) {
          await jobRound(round, suffix);
          await sdkRound(suffix);
        } else {
          await sdkRound(suffix);
          await jobRound(round, suffix);
        }
      }
      ['files', 'file'].forEach((what, group) => {
        const over = (side: string, other: string) => roundTo(best.get(side)![group]! / best.get(other)![group]!);
        console.log(`server_copy_ratio_${name}_${what}: ${over('sdk', 'job')}`);
        if (best.has('sdk-copy-object')) {
          console.log(`server_copy_vs_copy_object_${name}_${what}: ${over('sdk-copy-object', 'job')}`);
          // What s3rver itself gains from a CopyObject over a GET and a PUT, at the same concurrency: the most any
          // client can gain inside one endpoint.
          console.log(`s3rver_get_put_over_copy_object_${what}: ${over('sdk', 'sdk-copy-object')}`);
        }
      });
    };
    await way('local_to_s3', { mount: '/local', place: { type: 'LOCAL', root }, prefix: BENCH }, { mount: '/a', s3: a }, ['sdk']);
    // The job's copy in the first bucket is the source of the copies between and within endpoints.
    const firstBucket = { mount: '/a', place: s3Place(a), prefix: 'local_to_s3/job' };
    await way('s3_to_s3', firstBucket, { mount: '/b', s3: b }, ['sdk']);
    await way('inside_s3', firstBucket, { mount: '/a-again', s3: a }, ['sdk', 'sdk-copy-object']);

    // Resume: the big file from LOCAL to the second bucket, the server killed (-9) once the job's record holds half
    // the parts, then started again on its data folder, where it takes the job up from its record.
    const { partCount } = planUpload(bigSize);
    const jobId = await bench.startCopy([{ sourcePath: `/local/${BENCH}/${BIG}`, targetPath: '/b/resume/' }]);
    let atKill: CopyCheckpoint | undefined;
    for (;;) {
      atKill = checkpointOf(dataDir, jobId);
      const job = await bench.call<Job>(`jobs/${jobId}`);
      if ((atKill?.parts.length ?? 0) >= Math.ceil(partCount / 2) || isJobEnded(job.status)) break;
      await sleep(POLL_MS);
    }
    await bench.server.kill();
    // The record as the killed server left it, and the parts the bucket holds: parts stored but not yet recorded
    // are those the resumed job copies again.
    atKill = checkpointOf(dataDir, jobId);
    // A job that completed its upload between the last look and the kill left no upload to list: nothing was in flight.
    const stored = atKill ? await s3Driver(b).listParts('resume/big.bin', atKill.uploadId).catch(completedBeforeTheKill) : [];
    bench = await BenchServer.start(dataDir);
    let restarted = false;
    await bench.untilEnded(jobId, () => {
      const now = checkpointOf(dataDir, jobId);
      if (atKill && now && now.uploadId !== atKill.uploadId) restarted = true;
    });
    const prefix = 'resume';
    const resumed = new Map((await s3Driver(b).listTree(prefix)).objects.map((object) => [object.key, object.etag]));
    if (resumed.get(`${prefix}/${BIG}`) !== md5.get(BIG)) throw new Error('the resumed copy differs from its source');
    const recorded = atKill?.parts.length ?? partCount;
    const extra = restarted ? stored.length : stored.length - Math.min(recorded, stored.length);
    note(`resume: ${recorded} of ${partCount} parts recorded at the kill, ${stored.length} stored${restarted ? ', the resume started over' : ''}`);
    console.log(`resume_extra_parts: ${extra}`);
    console.log(`resume_parts_in_flight: ${PARTS_AT_ONCE}`);
    console.log(`server_copy_peak_rss_mb: ${roundTo(Math.max(...firstPeaks), 0)}`);
    if (laterPeaks.length > 0) console.log(`server_copy_peak_rss_mb_later_rounds: ${roundTo(Math.max(...laterPeaks), 0)}`);
    console.log(`sdk_copy_peak_rss_mb: ${roundTo(Math.max(...sdkPeaks), 0)}`);
  } finally {
    await bench.server.stop();
    await Promise.all([a.stop(), b.stop()]);
    rmSync(work, { recursive: true, force: true });
  }
}

function completedBeforeTheKill(error: unknown): StoredPart[] {
  if (error instanceof MultipartUploadNotFoundError) return [];
  throw error;
}
