import type { Readable } from 'node:stream';
import {
  bareEtag,
  ObjectNotFoundError,
  type ByteRange,
  type ListedObject,
  type ObjectHead,
  type PresignGetOptions,
  type PresignPutOptions,
} from '../driver';
import { contentDisposition } from '../http-headers';
import { encodeKeyPath } from '../local-urls';
import { partsOf } from '../split-parts';
import { checked, isNotFound, type S3Bucket } from './bucket';

/** Bodies of unknown length are sent in parts of this size (S3 wants ≥ 5 MiB for all parts but the last). */
export const S3_PART_SIZE = 8 * 1024 * 1024;

/** Parts one after another: memory holds one part at a time; the source waits while a part uploads. */
async function putInParts(bucket: S3Bucket, key: string, contentType: string, parts: AsyncGenerator<Buffer>, first: Buffer[]) {
  const { Bucket } = bucket;
  const { s3, client } = await bucket.connected();
  const { UploadId } = await client.send(new s3.CreateMultipartUploadCommand({ Bucket, Key: key, ContentType: contentType }));
  const done: { PartNumber: number; ETag: string }[] = [];
  try {
    const send = async (body: Buffer) => {
      const PartNumber = done.length + 1;
      const answer = await client.send(new s3.UploadPartCommand({ Bucket, Key: key, UploadId, PartNumber, Body: body }));
      done.push({ PartNumber, ETag: answer.ETag ?? '' });
    };
    for (const part of first) await send(part);
    for await (const part of parts) await send(part);
    const answer = await client.send(new s3.CompleteMultipartUploadCommand({ Bucket, Key: key, UploadId, MultipartUpload: { Parts: done } }));
    return bareEtag(answer.ETag);
  } catch (error) {
    await client.send(new s3.AbortMultipartUploadCommand({ Bucket, Key: key, UploadId })).catch(() => undefined);
    throw error;
  }
}

/** One request when the body fits in one part, a multipart upload otherwise. */
export async function put(bucket: S3Bucket, key: string, body: Readable, contentType: string): Promise<ObjectHead> {
  checked(key);
  const { s3, client } = await bucket.connected();
  const parts = partsOf(body, S3_PART_SIZE);
  let size = 0;
  const counted = (async function* () {
    for await (const part of parts) {
      size += part.length;
      yield part;
    }
  })();
  const first = await counted.next();
  const second = first.done ? first : await counted.next();
  if (second.done) {
    const bytes = first.done ? Buffer.alloc(0) : first.value;
    const answer = await client.send(new s3.PutObjectCommand({ Bucket: bucket.Bucket, Key: key, Body: bytes, ContentType: contentType }));
    return { size, etag: bareEtag(answer.ETag) };
  }
  const etag = await putInParts(bucket, key, contentType, counted, [first.value as Buffer, second.value]);
  return { size, etag };
}

export async function get(bucket: S3Bucket, key: string, range?: ByteRange): Promise<Readable> {
  const { s3, client } = await bucket.connected();
  try {
    const answer = await client.send(
      new s3.GetObjectCommand({ Bucket: bucket.Bucket, Key: checked(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
    );
    return answer.Body as Readable;
  } catch (error) {
    if (isNotFound(error)) throw new ObjectNotFoundError(key);
    throw error;
  }
}

/** Size, ETag and modification time of an object; undefined when there is none. */
async function headObject(bucket: S3Bucket, key: string): Promise<(ObjectHead & { modified: Date | null }) | undefined> {
  const { s3, client } = await bucket.connected();
  try {
    const answer = await client.send(new s3.HeadObjectCommand({ Bucket: bucket.Bucket, Key: checked(key) }));
    return { size: answer.ContentLength ?? 0, etag: bareEtag(answer.ETag), modified: answer.LastModified ?? null };
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

export async function head(bucket: S3Bucket, key: string): Promise<ObjectHead | undefined> {
  const found = await headObject(bucket, key);
  return found && { size: found.size, etag: found.etag };
}

export async function stat(bucket: S3Bucket, key: string): Promise<ListedObject | undefined> {
  const found = await headObject(bucket, key);
  return found && { key, ...found };
}

export async function deleteObject(bucket: S3Bucket, key: string): Promise<void> {
  const { s3, client } = await bucket.connected();
  try {
    await client.send(new s3.DeleteObjectCommand({ Bucket: bucket.Bucket, Key: checked(key) }));
  } catch (error) {
    // Some services answer an error for a key that is already gone: gone is what we wanted.
    if (isNotFound(error) || (await head(bucket, key).catch(() => 'unknown')) === undefined) return;
    throw error;
  }
}

export async function copy(bucket: S3Bucket, fromKey: string, toKey: string): Promise<void> {
  const { Bucket } = bucket;
  const { s3, client } = await bucket.connected();
  try {
    await client.send(new s3.CopyObjectCommand({ Bucket, Key: checked(toKey), CopySource: `${Bucket}/${encodeKeyPath(checked(fromKey))}` }));
  } catch (error) {
    if (isNotFound(error)) throw new ObjectNotFoundError(fromKey);
    throw error;
  }
}

/** S3 has no move: a copy, then the source deleted. */
export async function move(bucket: S3Bucket, fromKey: string, toKey: string): Promise<void> {
  await copy(bucket, fromKey, toKey);
  await deleteObject(bucket, fromKey);
}

export async function presignPut(bucket: S3Bucket, key: string, presign: PresignPutOptions): Promise<string> {
  return bucket.presigner().presign({ method: 'PUT', key: checked(key), query: { 'x-id': 'PutObject' }, expiresInSeconds: presign.expiresInSeconds });
}

export async function presignGet(bucket: S3Bucket, key: string, presign: PresignGetOptions): Promise<string> {
  const query = {
    'response-content-disposition': contentDisposition(presign.disposition, presign.filename),
    'response-content-type': presign.contentType,
    'x-id': 'GetObject',
  };
  return bucket.presigner().presign({ method: 'GET', key: checked(key), query, expiresInSeconds: presign.expiresInSeconds });
}
