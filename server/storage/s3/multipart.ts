import type { Readable } from 'node:stream';
import {
  bareEtag,
  InvalidPartError,
  MultipartUploadNotFoundError,
  type CompletedPart,
  type PresignPartOptions,
  type StoredPart,
} from '../driver';
import { checked, errorCode, isNotFound, type S3Bucket } from './bucket';

/**
 * An aborted multipart upload is aborted once more this long after: a part whose request was under way when the
 * upload was aborted (its client cancelled it, but the bytes were already on their way) may still be stored, and
 * AWS's documentation of AbortMultipartUpload says to abort again to free such parts.
 */
const ABORT_SWEEP_MS = 5_000;

/** S3's refusals of a part list, as the driver interface names them. */
function partListError(error: unknown, parts: { partNumber: number }[]): Error | undefined {
  const code = errorCode(error);
  const first = parts[0]?.partNumber ?? 0;
  if (code === 'InvalidPart') return new InvalidPartError(first, 'etag_mismatch');
  if (code === 'InvalidPartOrder') return new InvalidPartError(first, 'order');
  if (code === 'EntityTooSmall') return new InvalidPartError(first, 'too_small');
  return undefined;
}

export async function initMultipart(bucket: S3Bucket, key: string, contentType: string): Promise<string> {
  const { s3, client } = await bucket.connected();
  const answer = await client.send(new s3.CreateMultipartUploadCommand({ Bucket: bucket.Bucket, Key: checked(key), ContentType: contentType }));
  if (!answer.UploadId) throw new Error('The storage answered no upload id');
  return answer.UploadId;
}

export async function presignPart(bucket: S3Bucket, key: string, uploadId: string, partNumber: number, presign: PresignPartOptions): Promise<string> {
  const query = { partNumber: String(partNumber), uploadId, 'x-id': 'UploadPart' };
  return bucket.presigner().presign({ method: 'PUT', key: checked(key), query, expiresInSeconds: presign.expiresInSeconds });
}

export async function uploadPart(bucket: S3Bucket, key: string, uploadId: string, partNumber: number, body: Readable, size?: number): Promise<StoredPart> {
  // The SDK pipes a stream body into its request, and a pipe does not pass a failure on: a body that fails (a copy
  // aborted, a client gone) would leave the request waiting for bytes until its timeout. It is cancelled instead,
  // listening from the first moment: a body may fail (its copy aborted) while the client is still being made.
  const cancel = new AbortController();
  const failed = (error: Error) => cancel.abort(error);
  body.once('error', failed);
  try {
    if (body.errored) throw body.errored;
    const { s3, client } = await bucket.connected();
    const Body = size === undefined ? Buffer.concat(await body.toArray()) : body;
    cancel.signal.throwIfAborted();
    const answer = await client.send(
      new s3.UploadPartCommand({
        Bucket: bucket.Bucket,
        Key: checked(key),
        UploadId: uploadId,
        PartNumber: partNumber,
        Body,
        ContentLength: size ?? (Body as Buffer).length,
      }),
      { abortSignal: cancel.signal },
    );
    return { partNumber, size: size ?? (Body as Buffer).length, etag: bareEtag(answer.ETag) };
  } catch (error) {
    if (cancel.signal.aborted) throw cancel.signal.reason;
    if (errorCode(error) === 'NoSuchUpload') throw new MultipartUploadNotFoundError(uploadId);
    throw error;
  } finally {
    body.off('error', failed);
  }
}

export async function listParts(bucket: S3Bucket, key: string, uploadId: string): Promise<StoredPart[]> {
  const parts: StoredPart[] = [];
  let marker: string | undefined;
  const { s3, client } = await bucket.connected();
  try {
    for (;;) {
      const page = await client.send(
        new s3.ListPartsCommand({ Bucket: bucket.Bucket, Key: checked(key), UploadId: uploadId, MaxParts: 1000, PartNumberMarker: marker }),
      );
      for (const part of page.Parts ?? []) {
        parts.push({ partNumber: part.PartNumber ?? 0, size: part.Size ?? 0, etag: bareEtag(part.ETag) });
      }
      if (!page.IsTruncated || !page.NextPartNumberMarker || page.NextPartNumberMarker === marker) break;
      marker = page.NextPartNumberMarker;
    }
  } catch (error) {
    if (errorCode(error) === 'NoSuchUpload' || isNotFound(error)) throw new MultipartUploadNotFoundError(uploadId);
    throw error;
  }
  return parts.sort((a, b) => a.partNumber - b.partNumber);
}

export async function completeMultipart(bucket: S3Bucket, key: string, uploadId: string, parts: CompletedPart[]): Promise<string> {
  const { s3, client } = await bucket.connected();
  try {
    const answer = await client.send(
      new s3.CompleteMultipartUploadCommand({
        Bucket: bucket.Bucket,
        Key: checked(key),
        UploadId: uploadId,
        MultipartUpload: { Parts: parts.map((part) => ({ PartNumber: part.partNumber, ETag: `"${bareEtag(part.etag)}"` })) },
      }),
    );
    return bareEtag(answer.ETag);
  } catch (error) {
    if (errorCode(error) === 'NoSuchUpload') throw new MultipartUploadNotFoundError(uploadId);
    throw partListError(error, parts) ?? error;
  }
}

export async function abortMultipart(bucket: S3Bucket, key: string, uploadId: string): Promise<void> {
  const { s3, client } = await bucket.connected();
  const abort = async () => {
    try {
      await client.send(new s3.AbortMultipartUploadCommand({ Bucket: bucket.Bucket, Key: checked(key), UploadId: uploadId }));
    } catch (error) {
      if (errorCode(error) === 'NoSuchUpload' || isNotFound(error)) return;
      throw error;
    }
  };
  await abort();
  setTimeout(() => void abort().catch(() => undefined), bucket.options.abortSweepMs ?? ABORT_SWEEP_MS).unref();
}
