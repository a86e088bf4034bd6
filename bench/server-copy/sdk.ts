/**
 * The SDK side of the server-copy bench, in a process of its own as the server is (its peak RSS is its own): the
 * AWS SDK from Node doing the copy a server job does (each file read as a stream and uploaded by
 * @aws-sdk/lib-storage, or copied by CopyObject). Takes its job from the JSON file named by argv[2]; prints
 * `result <json>` last (seconds of each group's copy, peak RSS).
 */
import { createReadStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { planUpload } from '../../contract/parts';
import { forEachAtOnce } from '../../server/storage/at-once';
import { encodeKeyPath } from '../../server/storage/local-urls';
import { PARTS_AT_ONCE } from '../../server/storage/object-copy';
import { S3RVER_CREDENTIALS, S3RVER_REGION } from '../../tests/fixtures/s3rver';

export type Place = { type: 'LOCAL'; root: string } | { type: 'S3'; endpoint: string; bucket: string };

export interface CopyJob {
  side: 'sdk' | 'sdk-copy-object';
  from: Place;
  to: Place;
  /** Files copied first, untimed: the process's code and the storages warm. */
  warmUp?: CopyFile[];
  /** Groups of files copied one group after another, each timed on its own. */
  groups: CopyFile[][];
}

export interface CopyFile {
  fromKey: string;
  toKey: string;
  size: number;
}

export interface CopyResult {
  /** Seconds of each group's copy. */
  seconds: number[];
  peakRssMb: number;
}

/** Files copied at once, as a server job copies them. */
export const FILES_AT_ONCE = 8;
const CONTENT_TYPE = 'application/octet-stream';

const peakRssMb = () => Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? Number.NaN) / 1024;

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
  const run = await sdk(job);
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
