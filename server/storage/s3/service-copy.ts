import { createHash } from 'node:crypto';
import { MAX_PART_BYTES } from '../../../contract/parts';
import {
  bareEtag,
  MultipartUploadNotFoundError,
  ObjectNotFoundError,
  SourceChangedError,
  type ServiceCopy,
  type ServiceObject,
} from '../driver';
import { encodeKeyPath } from '../local-urls';
import { checked, errorCode, isNotFound, type S3Bucket } from './bucket';

/**
 * Two configs reach one service as one principal when endpoint, region and credentials are equal: what one can
 * read, the other can. Hashed, so that the scope can be compared (or logged) without carrying the secret.
 */
function scopeOf({ options }: S3Bucket): string {
  const endpoint = new URL(options.endpoint);
  const where = `${endpoint.origin}${endpoint.pathname.replace(/\/+$/, '')}`;
  const identity = JSON.stringify([where, options.region || 'us-east-1', options.accessKeyId, options.secretAccessKey]);
  return createHash('sha256').update(identity).digest('hex');
}

const copySourceOf = (from: ServiceObject) => `${from.bucket}/${encodeKeyPath(checked(from.key))}`;

/** CopyObject and UploadPartCopy between buckets of one scope. */
export function serviceCopyOf(bucket: S3Bucket): ServiceCopy {
  return {
    scope: scopeOf(bucket),
    // S3's limit of one CopyObject is its largest part's, 5 GiB.
    maxObjectBytes: bucket.options.copyObjectMaxBytes ?? MAX_PART_BYTES,
    objectOf: (key) => ({ bucket: bucket.Bucket, key: checked(key) }),
    async copyObject(from, toKey) {
      const { s3, client } = await bucket.connected();
      try {
        const answer = await client.send(new s3.CopyObjectCommand({ Bucket: bucket.Bucket, Key: checked(toKey), CopySource: copySourceOf(from) }));
        return bareEtag(answer.CopyObjectResult?.ETag);
      } catch (error) {
        if (isNotFound(error)) throw new ObjectNotFoundError(from.key);
        throw error;
      }
    },
    async copyPart(from, range, ifMatch, to) {
      const { s3, client } = await bucket.connected();
      try {
        const answer = await client.send(
          new s3.UploadPartCopyCommand({
            Bucket: bucket.Bucket,
            Key: checked(to.key),
            UploadId: to.uploadId,
            PartNumber: to.partNumber,
            CopySource: copySourceOf(from),
            CopySourceRange: `bytes=${range.start}-${range.end}`,
            CopySourceIfMatch: `"${ifMatch}"`,
          }),
        );
        return { partNumber: to.partNumber, size: range.end - range.start + 1, etag: bareEtag(answer.CopyPartResult?.ETag) };
      } catch (error) {
        const code = errorCode(error);
        if (code === 'NoSuchUpload') throw new MultipartUploadNotFoundError(to.uploadId);
        if (code === 'PreconditionFailed') throw new SourceChangedError(from.key);
        if (isNotFound(error)) throw new ObjectNotFoundError(from.key);
        throw error;
      }
    },
  };
}
