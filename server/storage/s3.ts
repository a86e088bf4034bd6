import type { StorageDriver } from './driver';
import { checkAccess, objectUrl, openBucket, type S3DriverOptions } from './s3/bucket';
import { folderExists, makeFolder, removeFolder } from './s3/folders';
import { listFolder } from './s3/listing';
import { abortMultipart, completeMultipart, initMultipart, listParts, presignPart, uploadPart } from './s3/multipart';
import { serviceCopyOf } from './s3/service-copy';
import { copy, deleteObject, get, head, move, presignGet, presignPut, put, stat } from './s3/objects';

/**
 * Any S3-compatible service. Checksums are computed only when an operation requires them: many compatible
 * services (and browsers PUTting to presigned URLs) do not speak the SDK's newer default checksum headers.
 */
export function createS3Driver(options: S3DriverOptions): StorageDriver {
  const bucket = openBucket(options);
  return {
    type: 'S3',
    put: (key, body, { contentType }) => put(bucket, key, body, contentType),
    get: (key, range) => get(bucket, key, range),
    head: (key) => head(bucket, key),
    delete: (key) => deleteObject(bucket, key),
    copy: (fromKey, toKey) => copy(bucket, fromKey, toKey),
    presignPut: (key, presign) => presignPut(bucket, key, presign),
    presignGet: (key, presign) => presignGet(bucket, key, presign),
    objectUrl: (key) => objectUrl(bucket, key),
    checkAccess: () => checkAccess(bucket),
    stat: (key) => stat(bucket, key),
    list: (folder) => listFolder(bucket, folder, false),
    listTree: (folder) => listFolder(bucket, folder, true),
    folderExists: (folder) => folderExists(bucket, folder),
    makeFolder: (folder) => makeFolder(bucket, folder),
    removeFolder: (folder) => removeFolder(bucket, folder),
    move: (fromKey, toKey) => move(bucket, fromKey, toKey),
    initMultipart: (key, { contentType }) => initMultipart(bucket, key, contentType),
    presignPart: (key, uploadId, partNumber, presign) => presignPart(bucket, key, uploadId, partNumber, presign),
    uploadPart: (key, uploadId, partNumber, body, options) => uploadPart(bucket, key, uploadId, partNumber, body, options?.size),
    listParts: (key, uploadId) => listParts(bucket, key, uploadId),
    completeMultipart: (key, uploadId, parts) => completeMultipart(bucket, key, uploadId, parts),
    abortMultipart: (key, uploadId) => abortMultipart(bucket, key, uploadId),
    serviceCopy: serviceCopyOf(bucket),
  };
}
