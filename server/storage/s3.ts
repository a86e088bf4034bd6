import type { Readable } from 'node:stream';
import {
  assertSafeKey,
  bareEtag,
  InvalidPartError,
  MultipartUploadNotFoundError,
  ObjectNotFoundError,
  UnsafeKeyError,
  assertSafeFolder,
  type FolderListing,
  type ListedObject,
  type ObjectHead,
  type StorageDriver,
  type StoredPart,
} from './driver';
import { forEachAtOnce } from './at-once';
import { contentDisposition } from './http-headers';
import { encodeKeyPath } from './local-urls';
import { S3Presigner, type PresignerOptions } from './s3-presign';
import { partsOf } from './split-parts';

export interface S3DriverOptions extends PresignerOptions {
  /** The folder probed by checkAccess (the config's default folder). */
  folder: string;
  /** How long after an abort it is made once more (ABORT_SWEEP_MS; tests shorten it). */
  abortSweepMs?: number;
}

/**
 * An aborted multipart upload is aborted once more this long after: a part whose request was under way when the
 * upload was aborted (its client cancelled it, but the bytes were already on their way) may still be stored, and
 * AWS's documentation of AbortMultipartUpload says to abort again to free such parts.
 */
const ABORT_SWEEP_MS = 5_000;

/** Bodies of unknown length are sent in parts of this size (S3 wants ≥ 5 MiB for all parts but the last). */
export const S3_PART_SIZE = 8 * 1024 * 1024;

const isNotFound = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | undefined;
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
};

const errorCode = (error: unknown) => (error as { name?: string; Code?: string } | undefined)?.Code ?? (error as { name?: string } | undefined)?.name;

/** S3's refusals of a part list, as the driver interface names them. */
function partListError(error: unknown, parts: { partNumber: number }[]): Error | undefined {
  const code = errorCode(error);
  const first = parts[0]?.partNumber ?? 0;
  if (code === 'InvalidPart') return new InvalidPartError(first, 'etag_mismatch');
  if (code === 'InvalidPartOrder') return new InvalidPartError(first, 'order');
  if (code === 'EntityTooSmall') return new InvalidPartError(first, 'too_small');
  return undefined;
}

/**
 * Any S3-compatible service. Checksums are computed only when an operation requires them: many compatible
 * services (and browsers PUTting to presigned URLs) do not speak the SDK's newer default checksum headers.
 */
export function createS3Driver(options: S3DriverOptions): StorageDriver {
  const region = options.region || 'us-east-1';
  let connection: ReturnType<typeof connect> | undefined;
  const connect = async () => {
    // The AWS SDK, by far the largest part of the server's code: loaded by the first S3 operation, so that a server
    // without S3 storage never loads it.
    const s3 = await import('@aws-sdk/client-s3');
    const client = new s3.S3Client({
      endpoint: options.endpoint,
      region,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      forcePathStyle: options.pathStyle,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
      requestHandler: { connectionTimeout: 10_000, requestTimeout: 120_000 },
    });
    return { s3, client };
  };
  /** The SDK and this driver's client, made by its first operation. */
  const connected = () => (connection ??= connect());
  let signer: S3Presigner | undefined;
  /** Presigned URLs are made without the SDK: the same URLs (S3Presigner's test), without its cost per URL. */
  const presigner = () => (signer ??= new S3Presigner({ ...options, region }));
  const Bucket = options.bucket;
  const checked = (key: string) => {
    assertSafeKey(key);
    return key;
  };

  async function head(key: string): Promise<ObjectHead | undefined> {
    const { s3, client } = await connected();
    try {
      const answer = await client.send(new s3.HeadObjectCommand({ Bucket, Key: checked(key) }));
      return { size: answer.ContentLength ?? 0, etag: bareEtag(answer.ETag) };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** Parts one after another: memory holds one part at a time; the source waits while a part uploads. */
  async function multipart(key: string, contentType: string, parts: AsyncGenerator<Buffer>, first: Buffer[]) {
    const { s3, client } = await connected();
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
      const answer = await client.send(
        new s3.CompleteMultipartUploadCommand({ Bucket, Key: key, UploadId, MultipartUpload: { Parts: done } }),
      );
      return bareEtag(answer.ETag);
    } catch (error) {
      await client.send(new s3.AbortMultipartUploadCommand({ Bucket, Key: key, UploadId })).catch(() => undefined);
      throw error;
    }
  }

  /**
   * Every page of a listing under `prefix` (with `/` as delimiter for one level). The first version of
   * ListObjects pages by key (`Marker`): every S3-compatible service speaks it, and its pages need no opaque
   * token (s3rver's V2 tokens need a cipher that OpenSSL 3 no longer offers).
   */
  async function* pagesOf(prefix: string, delimiter?: string) {
    const { s3, client } = await connected();
    let Marker: string | undefined;
    for (;;) {
      const page = await client.send(new s3.ListObjectsCommand({ Bucket, Prefix: prefix, Delimiter: delimiter, Marker }));
      yield page;
      const last = [...(page.Contents ?? []).map((object) => object.Key ?? ''), ...(page.CommonPrefixes ?? []).map((common) => common.Prefix ?? '')].sort().at(-1);
      const next = page.NextMarker ?? last;
      if (!page.IsTruncated || !next || next === Marker) return;
      Marker = next;
    }
  }

  const prefixOf = (folder: string) => {
    assertSafeFolder(folder);
    return folder === '' ? '' : `${folder}/`;
  };

  const listed = (object: { Key?: string; Size?: number; ETag?: string; LastModified?: Date }): ListedObject => ({
    key: object.Key ?? '',
    size: object.Size ?? 0,
    etag: object.ETag ? bareEtag(object.ETag) : null,
    modified: object.LastModified ?? null,
  });

  async function listFolder(folder: string, recursive: boolean): Promise<FolderListing> {
    const prefix = prefixOf(folder);
    const folders = new Set<string>();
    const objects: ListedObject[] = [];
    for await (const page of pagesOf(prefix, recursive ? undefined : '/')) {
      for (const common of page.CommonPrefixes ?? []) if (common.Prefix) folders.add(common.Prefix.slice(0, -1));
      for (const object of page.Contents ?? []) {
        const key = object.Key ?? '';
        if (key.endsWith('/')) {
          // A folder marker: the folder itself, or (recursively) an empty subfolder.
          if (key !== prefix) folders.add(key.slice(0, -1));
          continue;
        }
        objects.push(listed(object));
        if (recursive) {
          // Folders that exist only because objects are in them.
          const parents = key.slice(prefix.length).split('/').slice(0, -1);
          parents.forEach((_, index) => folders.add(prefix + parents.slice(0, index + 1).join('/')));
        }
      }
    }
    return { folders: [...folders], objects };
  }

  /** Deletes keys a few at a time (single deletes: every S3-compatible service speaks them). */
  async function deleteKeys(keys: string[]) {
    const { s3, client } = await connected();
    await forEachAtOnce(keys, 8, async (key) => {
      await client.send(new s3.DeleteObjectCommand({ Bucket, Key: key }));
    });
  }

  return {
    type: 'S3',

    async put(key, body, { contentType }) {
      checked(key);
      const { s3, client } = await connected();
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
        const answer = await client.send(new s3.PutObjectCommand({ Bucket, Key: key, Body: bytes, ContentType: contentType }));
        return { size, etag: bareEtag(answer.ETag) };
      }
      const etag = await multipart(key, contentType, counted, [first.value as Buffer, second.value]);
      return { size, etag };
    },

    async get(key, range) {
      const { s3, client } = await connected();
      try {
        const answer = await client.send(
          new s3.GetObjectCommand({ Bucket, Key: checked(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
        );
        return answer.Body as Readable;
      } catch (error) {
        if (isNotFound(error)) throw new ObjectNotFoundError(key);
        throw error;
      }
    },

    head,

    async delete(key) {
      const { s3, client } = await connected();
      try {
        await client.send(new s3.DeleteObjectCommand({ Bucket, Key: checked(key) }));
      } catch (error) {
        // Some services answer an error for a key that is already gone: gone is what we wanted.
        if (isNotFound(error) || (await head(key).catch(() => 'unknown')) === undefined) return;
        throw error;
      }
    },

    async copy(fromKey, toKey) {
      const { s3, client } = await connected();
      try {
        await client.send(
          new s3.CopyObjectCommand({ Bucket, Key: checked(toKey), CopySource: `${Bucket}/${encodeKeyPath(checked(fromKey))}` }),
        );
      } catch (error) {
        if (isNotFound(error)) throw new ObjectNotFoundError(fromKey);
        throw error;
      }
    },

    async presignPut(key, presign) {
      return presigner().presign({ method: 'PUT', key: checked(key), query: { 'x-id': 'PutObject' }, expiresInSeconds: presign.expiresInSeconds });
    },

    async presignGet(key, presign) {
      const query = {
        'response-content-disposition': contentDisposition(presign.disposition, presign.filename),
        'response-content-type': presign.contentType,
        'x-id': 'GetObject',
      };
      return presigner().presign({ method: 'GET', key: checked(key), query, expiresInSeconds: presign.expiresInSeconds });
    },

    objectUrl(key) {
      const endpoint = new URL(options.endpoint);
      const base = endpoint.pathname.replace(/\/+$/, '');
      if (options.pathStyle) return `${endpoint.origin}${base}/${Bucket}/${encodeKeyPath(key)}`;
      return `${endpoint.protocol}//${Bucket}.${endpoint.host}${base}/${encodeKeyPath(key)}`;
    },

    async checkAccess() {
      const probe = `${options.folder ? `${options.folder}/` : ''}clipstash-probe/`;
      const { s3, client } = await connected();
      await client.send(new s3.ListObjectsV2Command({ Bucket, Prefix: probe, MaxKeys: 1 }));
    },

    async stat(key) {
      const { s3, client } = await connected();
      try {
        const answer = await client.send(new s3.HeadObjectCommand({ Bucket, Key: checked(key) }));
        return { key, size: answer.ContentLength ?? 0, etag: bareEtag(answer.ETag), modified: answer.LastModified ?? null };
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },

    list: (folder) => listFolder(folder, false),

    listTree: (folder) => listFolder(folder, true),

    async folderExists(folder) {
      if (folder === '') return true;
      const { s3, client } = await connected();
      const page = await client.send(new s3.ListObjectsCommand({ Bucket, Prefix: prefixOf(folder), MaxKeys: 1 }));
      return (page.Contents?.length ?? 0) + (page.CommonPrefixes?.length ?? 0) > 0;
    },

    async makeFolder(folder) {
      if (folder === '') return;
      const { s3, client } = await connected();
      await client.send(new s3.PutObjectCommand({ Bucket, Key: prefixOf(folder), Body: Buffer.alloc(0) }));
    },

    async removeFolder(folder) {
      if (folder === '') throw new UnsafeKeyError(folder);
      const prefix = prefixOf(folder);
      const keys: string[] = [];
      for await (const page of pagesOf(prefix)) for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
      await deleteKeys(keys);
    },

    async move(fromKey, toKey) {
      await this.copy(fromKey, toKey);
      await this.delete(fromKey);
    },

    async initMultipart(key, { contentType }) {
      const { s3, client } = await connected();
      const answer = await client.send(new s3.CreateMultipartUploadCommand({ Bucket, Key: checked(key), ContentType: contentType }));
      if (!answer.UploadId) throw new Error('The storage answered no upload id');
      return answer.UploadId;
    },

    async presignPart(key, uploadId, partNumber, presign) {
      const query = { partNumber: String(partNumber), uploadId, 'x-id': 'UploadPart' };
      return presigner().presign({ method: 'PUT', key: checked(key), query, expiresInSeconds: presign.expiresInSeconds });
    },

    async uploadPart(key, uploadId, partNumber, body, size) {
      const { s3, client } = await connected();
      const Body = size === undefined ? Buffer.concat(await body.toArray()) : body;
      try {
        const answer = await client.send(
          new s3.UploadPartCommand({ Bucket, Key: checked(key), UploadId: uploadId, PartNumber: partNumber, Body, ContentLength: size ?? (Body as Buffer).length }),
        );
        return { partNumber, size: size ?? (Body as Buffer).length, etag: bareEtag(answer.ETag) };
      } catch (error) {
        if (errorCode(error) === 'NoSuchUpload') throw new MultipartUploadNotFoundError(uploadId);
        throw error;
      }
    },

    async listParts(key, uploadId) {
      const parts: StoredPart[] = [];
      let marker: string | undefined;
      const { s3, client } = await connected();
      try {
        for (;;) {
          const page = await client.send(
            new s3.ListPartsCommand({ Bucket, Key: checked(key), UploadId: uploadId, MaxParts: 1000, PartNumberMarker: marker }),
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
    },

    async completeMultipart(key, uploadId, parts) {
      const { s3, client } = await connected();
      try {
        const answer = await client.send(
          new s3.CompleteMultipartUploadCommand({
            Bucket,
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
    },

    async abortMultipart(key, uploadId) {
      const { s3, client } = await connected();
      const abort = async () => {
        try {
          await client.send(new s3.AbortMultipartUploadCommand({ Bucket, Key: checked(key), UploadId: uploadId }));
        } catch (error) {
          if (errorCode(error) === 'NoSuchUpload' || isNotFound(error)) return;
          throw error;
        }
      };
      await abort();
      setTimeout(() => void abort().catch(() => undefined), options.abortSweepMs ?? ABORT_SWEEP_MS).unref();
    },
  };
}
