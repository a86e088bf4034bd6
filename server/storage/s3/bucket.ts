import { assertSafeKey } from '../driver';
import { encodeKeyPath } from '../local-urls';
import { S3Presigner, type PresignerOptions } from '../s3-presign';

export interface S3DriverOptions extends PresignerOptions {
  /** The folder probed by checkAccess (the config's default folder). */
  folder: string;
  /** How long after an abort it is made once more (ABORT_SWEEP_MS; tests shorten it). */
  abortSweepMs?: number;
  /** The largest object copied within the service by one CopyObject (S3's limit, 5 GiB; tests lower it). */
  copyObjectMaxBytes?: number;
}

/**
 * The AWS SDK, by far the largest part of the server's code: loaded by the first S3 operation, so that a server
 * without S3 storage never loads it.
 */
async function connect(options: S3DriverOptions, region: string) {
  const s3 = await import('@aws-sdk/client-s3');
  const client = new s3.S3Client({
    endpoint: options.endpoint,
    region,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    forcePathStyle: options.pathStyle,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
    // With `Expect: 100-continue` the SDK sends each body on a connection of its own, and a request cancelled while
    // it waits for the 100 stayed open until the request timeout (2 minutes per cancelled part). Without, parts
    // reuse kept-alive connections and a cancel ends the request at once.
    expectContinueHeader: false,
    // A request with no answer by then fails (the SDK's default only logs a warning and goes on waiting).
    requestHandler: { connectionTimeout: 10_000, requestTimeout: 120_000, throwOnRequestTimeout: true },
  });
  return { s3, client };
}

/** What every S3 operation works on: the driver's options and the bucket's client, made by its first operation. */
export interface S3Bucket {
  readonly options: S3DriverOptions;
  /** The bucket's name, as the SDK's commands name it. */
  readonly Bucket: string;
  /** The SDK and this driver's client. */
  connected(): ReturnType<typeof connect>;
  /** Presigned URLs are made without the SDK: the same URLs (S3Presigner's test), without its cost per URL. */
  presigner(): S3Presigner;
}

export function openBucket(options: S3DriverOptions): S3Bucket {
  const region = options.region || 'us-east-1';
  let connection: ReturnType<typeof connect> | undefined;
  let signer: S3Presigner | undefined;
  return {
    options,
    Bucket: options.bucket,
    connected: () => (connection ??= connect(options, region)),
    presigner: () => (signer ??= new S3Presigner({ ...options, region })),
  };
}

/** `key`, once it is known to be safe. */
export const checked = (key: string) => {
  assertSafeKey(key);
  return key;
};

export const isNotFound = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | undefined;
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
};

export const errorCode = (error: unknown) => (error as { name?: string; Code?: string } | undefined)?.Code ?? (error as { name?: string } | undefined)?.name;

export function objectUrl({ options, Bucket }: S3Bucket, key: string): string {
  const endpoint = new URL(options.endpoint);
  const base = endpoint.pathname.replace(/\/+$/, '');
  if (options.pathStyle) return `${endpoint.origin}${base}/${Bucket}/${encodeKeyPath(key)}`;
  return `${endpoint.protocol}//${Bucket}.${endpoint.host}${base}/${encodeKeyPath(key)}`;
}

export async function checkAccess(bucket: S3Bucket): Promise<void> {
  const probe = `${bucket.options.folder ? `${bucket.options.folder}/` : ''}clipstash-probe/`;
  const { s3, client } = await bucket.connected();
  await client.send(new s3.ListObjectsV2Command({ Bucket: bucket.Bucket, Prefix: probe, MaxKeys: 1 }));
}
