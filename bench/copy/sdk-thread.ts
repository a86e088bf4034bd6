/**
 * The SDK's copy, in a worker thread of its own (the browser has processes of its own): each file downloaded from
 * the server as a stream and uploaded by @aws-sdk/lib-storage `Upload` (one PUT, or parts `partSize` long,
 * `queueSize` at a time), `filesAtOnce` files at a time, as the engine copies them. Checksums only where required, as
 * the browser's presigned PUTs send none. Answers each job with its seconds.
 */
import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { parentPort, workerData } from 'node:worker_threads';
import { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';

export interface SdkCopySetup {
  serverUrl: string;
  token: string;
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  partSize: number;
  queueSize: number;
  /** Files copied at once, as the engine does. */
  filesAtOnce: number;
}

/** Mount paths to copy, and the bucket key of each copy. */
export type SdkCopyJob = { path: string; key: string }[];
export type SdkCopyAnswer = { seconds: number } | { error: string };

const setup = workerData as SdkCopySetup;
const client = new S3Client({
  endpoint: setup.endpoint,
  region: setup.region,
  forcePathStyle: true,
  credentials: { accessKeyId: setup.accessKeyId, secretAccessKey: setup.secretAccessKey },
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
});

async function copy(path: string, key: string) {
  const response = await fetch(`${setup.serverUrl}/api/admin/fs/download?path=${encodeURIComponent(path)}`, {
    headers: { Authorization: `Bearer ${setup.token}` },
  });
  if (!response.ok || !response.body) throw new Error(`download of ${path} answered ${response.status}`);
  const body = Readable.fromWeb(response.body as ReadableStream<Uint8Array>);
  await new Upload({ client, params: { Bucket: setup.bucket, Key: key, Body: body }, partSize: setup.partSize, queueSize: setup.queueSize }).done();
}

parentPort?.on('message', (job: SdkCopyJob) => {
  const started = performance.now();
  const queue = [...job];
  const lane = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) await copy(file.path, file.key);
  };
  void Promise.all(Array.from({ length: setup.filesAtOnce }, lane)).then(
    () => parentPort?.postMessage({ seconds: (performance.now() - started) / 1000 } satisfies SdkCopyAnswer),
    (error: unknown) => parentPort?.postMessage({ error: String((error as Error)?.stack ?? error) } satisfies SdkCopyAnswer),
  );
});
