import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { S3RVER_CREDENTIALS, S3RVER_REGION } from '../../tests/fixtures/s3rver';
import { describePhases, type TimedRequest } from './phases';
import type { S3rverProcess } from './s3rver-process';

const require = createRequire(import.meta.url);

/**
 * The reference: @aws-sdk/lib-storage `Upload` of the file at `path` to s3rver in `partSize` parts, `queueSize`
 * at a time, from a worker thread (the client has a thread of its own, as the browser has processes of its own).
 * Checksums only where required, as the server's own S3 client and the browser's presigned PUTs do. Resolves with
 * the seconds from start to done, and where they went.
 */
export function sdkUpload(s3: S3rverProcess, path: string, partSize: number, queueSize: number): Promise<{ seconds: number; phases: string }> {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { createReadStream } = require('node:fs');
    const { S3Client } = require(workerData.clientS3);
    const { Upload } = require(workerData.libStorage);
    const { endpoint, region, bucket, accessKeyId, secretAccessKey, path, partSize, queueSize } = workerData;
    const client = new S3Client({ endpoint, region, forcePathStyle: true, credentials: { accessKeyId, secretAccessKey },
      requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' });
    const commands = [];
    client.middlewareStack.add((next, context) => async (args) => {
      const entry = { method: context.commandName === 'UploadPartCommand' ? 'PUT' : 'POST', url: context.commandName, start: performance.now() };
      commands.push(entry);
      const result = await next(args);
      entry.end = performance.now();
      return result;
    }, { step: 'initialize' });
    const started = performance.now();
    new Upload({ client, params: { Bucket: bucket, Key: 'bench/sdk.bin', Body: createReadStream(path) }, partSize, queueSize })
      .done()
      .then(() => parentPort.postMessage({ seconds: (performance.now() - started) / 1000, started, commands }))
      .catch((error) => parentPort.postMessage({ error: String(error && error.stack || error) }));
  `;
  const worker = new Worker(code, {
    eval: true,
    workerData: {
      clientS3: require.resolve('@aws-sdk/client-s3'),
      libStorage: require.resolve('@aws-sdk/lib-storage'),
      endpoint: s3.endpoint,
      region: S3RVER_REGION,
      bucket: s3.bucket,
      ...S3RVER_CREDENTIALS,
      path,
      partSize,
      queueSize,
    },
  });
  return new Promise((resolve, reject) => {
    worker.once('message', (message: { seconds?: number; started?: number; commands?: TimedRequest[]; error?: string }) => {
      void worker.terminate();
      if (message.error !== undefined || message.seconds === undefined) return reject(new Error(`SDK upload failed: ${message.error}`));
      resolve({ seconds: message.seconds, phases: describePhases(message.commands ?? [], message.started ?? 0) });
    });
    worker.once('error', reject);
  });
}
