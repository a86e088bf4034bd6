/**
 * One side of the server-copy bench, in a process of its own as a server is (its peak RSS is its own): the copy
 * engine the server's jobs run (server/storage/object-copy.ts), or the AWS SDK from Node doing the same copy (each
 * file read as a stream and uploaded by @aws-sdk/lib-storage, or copied by CopyObject). Takes its job from the JSON
 * file named by argv[2]; prints `part <n>` as the engine begins a part of a streamed multipart copy,
 * `checkpoint <parts>` once a checkpoint is written to `checkpointFile`, and last `result <json>` (seconds of each
 * group's copy, peak RSS).
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { planUpload } from '../../contract/parts';
import { createSecretBox } from '../../server/security/secret-box';
import { forEachAtOnce } from '../../server/storage/at-once';
import type { StorageDriver } from '../../server/storage/driver';
import { createLocalDriver } from '../../server/storage/local';
import { encodeKeyPath } from '../../server/storage/local-urls';
import { copyObject, PARTS_AT_ONCE, type CopyCheckpoint } from '../../server/storage/object-copy';
import { createS3Driver } from '../../server/storage/s3';
import { S3RVER_CREDENTIALS, S3RVER_REGION } from '../../tests/fixtures/s3rver';

export type Place = { type: 'LOCAL'; root: string } | { type: 'S3'; endpoint: string; bucket: string };

export interface CopyJob {
  side: 'engine' | 'sdk' | 'sdk-copy-object';
  from: Place;
  to: Place;
  /** Files copied first, untimed: the process's code and the storages warm (s3rver too, for whichever side is first). */
  warmUp?: { fromKey: string; toKey: string; size: number }[];
  /** Groups of files copied one group after another, each timed on its own. */
  groups: { fromKey: string; toKey: string; size: number }[][];
  /** Engine: each checkpoint of the (one) multipart copy is written here; with `resume`, the copy goes on from it. */
  checkpointFile?: string;
  resume?: boolean;
}

export interface CopyResult {
  /** Seconds of each group's copy. */
  seconds: number[];
  peakRssMb: number;
}

type CopyFile = CopyJob['groups'][number][number];

/** Files copied at once by either side: the jobs copy a folder's files a few at a time. */
export const FILES_AT_ONCE = 8;
const CONTENT_TYPE = 'application/octet-stream';

const peakRssMb = () => Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? Number.NaN) / 1024;

function driverOf(place: Place): StorageDriver {
  if (place.type === 'LOCAL') return createLocalDriver({ root: place.root, configId: 'bench', secrets: createSecretBox(randomBytes(32)), now: () => new Date() });
  return createS3Driver({ endpoint: place.endpoint, region: S3RVER_REGION, bucket: place.bucket, ...S3RVER_CREDENTIALS, pathStyle: true, folder: '' });
}

/** The engine, told through stdout which part of a streamed multipart copy it begins (read by the resume figure). */
async function engine(job: CopyJob): Promise<(files: CopyFile[]) => Promise<void>> {
  const source = driverOf(job.from);
  const target = driverOf(job.to);
  const from: StorageDriver = {
    ...source,
    get(key, range) {
      const size = job.groups.flat().find((file) => file.fromKey === key)?.size ?? 0;
      if (range) process.stdout.write(`part ${Math.floor(range.start / planUpload(size).partSize) + 1}\n`);
      return source.get(key, range);
    },
  };
  const record = async (checkpoint: CopyCheckpoint) => {
    if (!job.checkpointFile) return;
    // Written whole, then renamed: a kill -9 meanwhile leaves the previous checkpoint.
    await writeFile(`${job.checkpointFile}.tmp`, JSON.stringify(checkpoint));
    await rename(`${job.checkpointFile}.tmp`, job.checkpointFile);
    process.stdout.write(`checkpoint ${checkpoint.parts.length}\n`);
  };
  const resume = job.resume && job.checkpointFile ? (JSON.parse(readFileSync(job.checkpointFile, 'utf8')) as CopyCheckpoint) : undefined;
  for (const driver of [source, target]) await driver.checkAccess(); // connections and the SDK loaded before the clock starts
  return (files) =>
    forEachAtOnce(files, FILES_AT_ONCE, async (file) => {
      await copyObject({ driver: from, key: file.fromKey }, { driver: target, key: file.toKey }, { size: file.size, contentType: CONTENT_TYPE, resume, onCheckpoint: record });
    });
}

/** The AWS SDK from Node: a stream of each file into lib-storage's Upload (parts as the engine's), or CopyObject. */
async function sdk(job: CopyJob): Promise<(files: CopyFile[]) => Promise<void>> {
  const { S3Client, GetObjectCommand, CopyObjectCommand, ListObjectsCommand } = await import('@aws-sdk/client-s3');
  const { Upload } = await import('@aws-sdk/lib-storage');
  const clientOf = (place: Place) =>
    place.type === 'S3'
      ? new S3Client({
          endpoint: place.endpoint,
          region: S3RVER_REGION,
          forcePathStyle: true,
          credentials: S3RVER_CREDENTIALS,
          requestChecksumCalculation: 'WHEN_REQUIRED',
          responseChecksumValidation: 'WHEN_REQUIRED',
        })
      : undefined;
  const [fromClient, toClient] = [clientOf(job.from), clientOf(job.to)];
  const { from, to } = job;
  if (to.type !== 'S3' || !toClient) throw new Error('the SDK side copies into S3');
  for (const [client, place] of [[fromClient, from], [toClient, to]] as const) {
    if (client && place.type === 'S3') await client.send(new ListObjectsCommand({ Bucket: place.bucket, MaxKeys: 1 }));
  }
  const read = async (key: string): Promise<Readable> =>
    from.type === 'LOCAL' ? createReadStream(join(from.root, key)) : ((await fromClient!.send(new GetObjectCommand({ Bucket: from.bucket, Key: key }))).Body as Readable);
  return (files) =>
    forEachAtOnce(files, FILES_AT_ONCE, async (file) => {
      if (job.side === 'sdk-copy-object' && from.type === 'S3') {
        await toClient.send(new CopyObjectCommand({ Bucket: to.bucket, Key: file.toKey, CopySource: `${from.bucket}/${encodeKeyPath(file.fromKey)}` }));
        return;
      }
      const upload = new Upload({
        client: toClient,
        params: { Bucket: to.bucket, Key: file.toKey, Body: await read(file.fromKey), ContentType: CONTENT_TYPE },
        partSize: planUpload(file.size).partSize,
        queueSize: PARTS_AT_ONCE,
      });
      await upload.done();
    });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const job = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as CopyJob;
  const run = job.side === 'engine' ? await engine(job) : await sdk(job);
  await run(job.warmUp ?? []);
  const seconds: number[] = [];
  for (const files of job.groups) {
    const started = performance.now();
    await run(files);
    seconds.push((performance.now() - started) / 1000);
  }
  const result: CopyResult = { seconds, peakRssMb: peakRssMb() };
  process.stdout.write(`result ${JSON.stringify(result)}\n`);
  process.exit(0);
}
