import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { planUpload } from '../../contract/parts';
import { createSecretBox } from '../../server/security/secret-box';
import { forEachAtOnce } from '../../server/storage/at-once';
import { createLocalDriver } from '../../server/storage/local';
import { PARTS_AT_ONCE } from '../../server/storage/object-copy';
import { createS3Driver } from '../../server/storage/s3';
import { S3RVER_CREDENTIALS, S3RVER_REGION } from '../../tests/fixtures/s3rver';
import { seedFolder } from '../batch/seed';
import { MiB } from '../measure';
import { benchSize, SMOKE_FILE_MB, SMOKE_FILES } from '../size';
import { generateFile } from '../transfer/file';
import { startS3rverProcess, type S3rverProcess } from '../transfer/s3rver-process';
import type { CopyJob, CopyResult, Place } from './runner';

const note = (text: string) => process.stderr.write(`[server-copy] ${text}\n`);
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const BIG = 'big.bin';
/** Small files each side copies untimed first: a cold process or s3rver took twice as long on its first 2,000. */
const WARM_UP_FILES = 200;

/** What a runner process printed: its result, the parts it began, the checkpoints it wrote. */
interface RunnerOutput {
  result?: CopyResult;
  partsBegun: Set<number>;
}

/**
 * Runs one side of a copy in a process of its own (runner.ts). `killAtCheckpoint`: kill -9 once a checkpoint holds
 * that many parts (the output then has no result).
 */
async function runSide(job: CopyJob, jobFile: string, killAtCheckpoint?: number): Promise<RunnerOutput> {
  const runner = fileURLToPath(new URL('./runner.ts', import.meta.url));
  // In a file: 2,000 files' keys are more than a command line may carry.
  writeFileSync(jobFile, JSON.stringify(job));
  const child = spawn(process.execPath, ['--import', 'tsx', runner, jobFile], { stdio: ['ignore', 'pipe', 'inherit'] });
  const output: RunnerOutput = { partsBegun: new Set() };
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  for await (const line of createInterface({ input: child.stdout })) {
    const [word, value = ''] = [line.slice(0, line.indexOf(' ')), line.slice(line.indexOf(' ') + 1)];
    if (word === 'part') output.partsBegun.add(Number(value));
    if (word === 'result') output.result = JSON.parse(value) as CopyResult;
    if (word === 'checkpoint' && killAtCheckpoint !== undefined && Number(value) >= killAtCheckpoint) child.kill('SIGKILL');
  }
  const code = await exited;
  if (killAtCheckpoint === undefined && (code !== 0 || !output.result)) throw new Error(`the ${job.side} copy exited with ${code}`);
  return output;
}

const s3Place = (s3: S3rverProcess): Place => ({ type: 'S3', endpoint: s3.endpoint, bucket: s3.bucket });
const s3Driver = (s3: S3rverProcess) =>
  createS3Driver({ endpoint: s3.endpoint, region: S3RVER_REGION, bucket: s3.bucket, ...S3RVER_CREDENTIALS, pathStyle: true, folder: '' });

/**
 * `npm run bench -- server-copy`: the engine the server's copy jobs run (server/storage/object-copy.ts), driven
 * directly, against the AWS SDK from Node doing the same copy. See bench/README.md.
 */
export async function serverCopy() {
  const bigMb = benchSize(2048, SMOKE_FILE_MB, 'BENCH_SIZE_MB');
  const count = Math.max(1, benchSize(2000, SMOKE_FILES, 'BENCH_FILES'));
  const bigSize = Math.round(bigMb * MiB);
  const root = mkdtempSync(join(tmpdir(), 'clipstash-server-copy-'));
  const jobFile = join(root, 'job.json');
  const [a, b] = await Promise.all([startS3rverProcess(), startS3rverProcess()]);
  try {
    const small = seedFolder(root, count);
    await generateFile(join(root, BIG), bigSize);
    // The MD5 of every source file (the LOCAL driver's ETag, kept beside each file once made): s3rver's ETag of
    // every object, multipart ones too, is the MD5 of the bytes it stored, so each copy is checked against it.
    const local = createLocalDriver({ root, configId: 'bench', secrets: createSecretBox(randomBytes(32)), now: () => new Date() });
    const md5 = new Map<string, string>();
    await forEachAtOnce([...small.map((file) => file.relativePath), BIG], 8, async (key) => {
      md5.set(key, (await local.head(key))?.etag ?? '');
    });
    const files = (fromPrefix: string, toPrefix: string) => ({
      small: small.map(({ relativePath, size }) => ({ fromKey: `${fromPrefix}${relativePath}`, toKey: `${toPrefix}${relativePath}`, size })),
      big: [{ fromKey: `${fromPrefix}${BIG}`, toKey: `${toPrefix}${BIG}`, size: bigSize }],
    });
    const checked = async (s3: S3rverProcess, prefix: string, keys: string[]) => {
      const stored = new Map((await s3Driver(s3).listTree(prefix.replace(/\/$/, ''))).objects.map((object) => [object.key.slice(prefix.length), object.etag]));
      const wrong = keys.filter((key) => stored.get(key) !== md5.get(key));
      if (wrong.length > 0) throw new Error(`${wrong.length} copies under ${prefix} differ from their source (first: ${wrong[0]})`);
    };
    const peaks: number[] = [];
    const sdkPeaks: number[] = [];

    /** One scenario: the engine, then the SDK (and CopyObject within one endpoint), each the folder then the big file. */
    const scenario = async (name: string, from: Place, fromPrefix: string, to: S3rverProcess, sdkSides: CopyJob['side'][]) => {
      const seconds = new Map<string, number[]>();
      for (const side of ['engine', ...sdkSides] as const) {
        const prefix = `${name}/${side}/`;
        const { small: smallJob, big: bigJob } = files(fromPrefix, prefix);
        const warmUp = smallJob.slice(0, WARM_UP_FILES).map((file) => ({ ...file, toKey: `warm-up/${file.toKey}` }));
        const { result } = await runSide({ side, from, to: s3Place(to), warmUp, groups: [smallJob, bigJob] }, jobFile);
        await checked(to, prefix, [...smallJob, ...bigJob].map((file) => file.toKey.slice(prefix.length)));
        seconds.set(side, result!.seconds);
        (side === 'engine' ? peaks : sdkPeaks).push(result!.peakRssMb);
        const [smallS = 0, bigS = 0] = result!.seconds;
        note(`${name} ${side}: ${round(smallS)} s for ${count} files, ${round(bigS)} s for ${bigMb} MiB (${round(bigMb / bigS, 1)} MiB/s), peak RSS ${round(result!.peakRssMb, 0)} MiB`);
      }
      ['files', 'file'].forEach((what, group) => {
        const ratio = (side: string) => round(seconds.get(side)![group]! / seconds.get('engine')![group]!);
        console.log(`server_copy_ratio_${name}_${what}: ${ratio('sdk')}`);
        if (seconds.has('sdk-copy-object')) console.log(`server_copy_vs_copy_object_${name}_${what}: ${ratio('sdk-copy-object')}`);
      });
    };
    await scenario('local_to_s3', { type: 'LOCAL', root }, '', a, ['sdk']);
    // The engine's copy in the first s3rver is the source of the copies between and within endpoints.
    await scenario('s3_to_s3', s3Place(a), 'local_to_s3/engine/', b, ['sdk']);
    await scenario('inside_s3', s3Place(a), 'local_to_s3/engine/', a, ['sdk', 'sdk-copy-object']);

    // Resume: the big file from LOCAL to the second s3rver, the engine killed (-9) once half its parts are recorded.
    const checkpointFile = join(root, 'checkpoint.json');
    const resumeJob: CopyJob = { side: 'engine', from: { type: 'LOCAL', root }, to: s3Place(b), groups: [files('', 'resume/').big], checkpointFile };
    const { partCount } = planUpload(bigSize);
    const killed = await runSide(resumeJob, jobFile, Math.ceil(partCount / 2));
    const resumed = await runSide({ ...resumeJob, resume: true }, jobFile);
    await checked(b, 'resume/', [BIG]);
    const extra = [...resumed.partsBegun].filter((part) => killed.partsBegun.has(part)).length;
    note(`resume: ${killed.partsBegun.size} of ${partCount} parts begun before the kill, ${resumed.partsBegun.size} copied by the resume`);
    console.log(`resume_extra_parts: ${extra}`);
    console.log(`resume_parts_in_flight: ${PARTS_AT_ONCE}`);
    console.log(`server_copy_peak_rss_mb: ${round(Math.max(...peaks), 0)}`);
    console.log(`sdk_copy_peak_rss_mb: ${round(Math.max(...sdkPeaks), 0)}`);
  } finally {
    await Promise.all([a.stop(), b.stop()]);
    rmSync(root, { recursive: true, force: true });
  }
}
