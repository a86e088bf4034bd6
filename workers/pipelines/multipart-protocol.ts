import type { FileShare } from '../../contract/files';
import type { FsMultipartInit, FsUploadResult } from '../../contract/fs';
import type { MultipartInitResponse, MultipartSignResponse } from '../../contract/multipart';
import type { ApiAccess, JournalPart, JournalTask, ShareOptions } from '../../contract/transfer';
import { TransferFailure } from '../engine/failure';
import type { MultipartJob } from './multipart-upload';
import type { UploadPlan } from '../../contract/parts';
import { callApi, filesScope } from '../transport/api';
import type { Transport } from '../transport/http';
import type { SignedBatch } from './part-urls';

/** A started multipart upload, as the journal keeps it: `fileId` is the share's id, or the fs target's key. */
export interface UploadRef {
  fileId: string;
  uploadId: string;
}

/**
 * The server side of a multipart upload: the file-share families (`/s3|url/multipart/*`) and the mount file
 * system (`/fs/multipart/*`) start, sign, complete and abort differently; the pipeline that sends the parts is one.
 */
export interface MultipartProtocol<R> {
  init(plan: UploadPlan, signal: AbortSignal): Promise<UploadRef>;
  /** The parts storage already holds, for a resume; undefined when the server cannot tell (the journal is trusted). */
  storedParts(ref: UploadRef, signal: AbortSignal): Promise<JournalPart[] | undefined>;
  sign(ref: UploadRef, partNumbers: number[], signal: AbortSignal): Promise<SignedBatch>;
  complete(ref: UploadRef, parts: { partNumber: number; etag: string }[], signal: AbortSignal): Promise<R>;
  /** Gives up the upload on the storage (a user's cancel, or a removed task). */
  abort(ref: UploadRef): Promise<void>;
}

/** Signed URLs are used until half their lifetime is gone, so that a slow part does not start on a dying URL. */
export const untilHalfOf = (seconds: number) => Date.now() + (seconds * 1000) / 2;

export interface ShareUploadFields {
  family: 's3' | 'url';
  filename: string;
  mimetype: string;
  size: number;
  storageConfigId?: string;
  options: ShareOptions;
  sourceUrl?: string;
}

/** The body that names a started share-style upload. */
export const shareRefBody = (ref: UploadRef) => ({ file_id: ref.fileId, upload_id: ref.uploadId });

/**
 * The calls every share-style family makes alike under `base` (`file_id`/`upload_id` bodies): the parts storage
 * holds, signing, and giving up. File shares and file requests both speak them.
 */
export function shareStyleCalls(transport: Transport, api: ApiAccess, base: string): Pick<MultipartProtocol<unknown>, 'storedParts' | 'sign' | 'abort'> {
  return {
    async storedParts(ref, signal) {
      const query = `file_id=${encodeURIComponent(ref.fileId)}&upload_id=${encodeURIComponent(ref.uploadId)}`;
      const stored = await callApi<{ parts: JournalPart[] }>(transport, api, `${base}/parts?${query}`, { method: 'GET', signal, failure: 'init_failed' });
      return stored.parts;
    },
    async sign(ref, partNumbers, signal) {
      const signed = await callApi<MultipartSignResponse>(transport, api, `${base}/sign`, {
        method: 'POST',
        body: { ...shareRefBody(ref), partNumbers },
        signal,
        failure: 'part_failed',
      });
      return { urls: signed.urls, until: untilHalfOf(signed.expires_in) };
    },
    async abort(ref) {
      await callApi(transport, api, `${base}/abort`, { method: 'POST', body: shareRefBody(ref), failure: 'unknown' });
    },
  };
}

/** A file share in parts: `/s3/multipart/*` for local files, `/url/multipart/*` for URL uploads. */
export function shareProtocol(transport: Transport, api: ApiAccess, fields: ShareUploadFields): MultipartProtocol<FileShare> {
  const base = `/${fields.family}/multipart`;
  return {
    ...shareStyleCalls(transport, api, base),
    async init(plan, signal) {
      const init = await callApi<MultipartInitResponse>(transport, api, `${base}/init`, {
        method: 'POST',
        body: {
          ...(fields.storageConfigId && { s3_config_id: fields.storageConfigId }),
          filename: fields.filename,
          mimetype: fields.mimetype,
          size: fields.size,
          part_size: plan.partSize,
          ...(fields.options.slug && { slug: fields.options.slug }),
          ...(fields.sourceUrl && { source_url: fields.sourceUrl }),
        },
        signal,
        failure: 'init_failed',
      });
      return { fileId: init.file_id, uploadId: init.upload_id };
    },
    complete(ref, parts, signal) {
      // The slug was claimed at init.
      const body = { ...shareRefBody(ref), parts, ...fields.options, slug: undefined };
      return callApi<FileShare>(transport, api, `${base}/complete`, { method: 'POST', body, signal, failure: 'commit_failed' });
    },
  };
}

/** Seconds the fs routes' part URLs live (the server's presign lifetime); used only to pace re-signing. */
const FS_PART_URL_SECONDS = 3600;

/** The mount file system's own calls: `/{admin,user}/fs/multipart/*`, naming the file by its full path. */
export const fsBase = (api: ApiAccess) => `/${filesScope(api)}/fs`;

/** A file into a mount folder in parts. `target` is the file's full path once init has named it. */
export function fsProtocol(
  transport: Transport,
  api: ApiAccess,
  fields: { folder: string; filename: string; contentType: string; size: number },
): MultipartProtocol<FsUploadResult> {
  // The server names the file (normalised) at init; a resumed upload's name is the same folder and file name.
  let path = `${fields.folder}${fields.filename}`;
  const base = `${fsBase(api)}/multipart`;
  const refBody = (ref: UploadRef) => ({ path, uploadId: ref.uploadId, key: ref.fileId });
  return {
    async init(plan, signal) {
      const init = await callApi<FsMultipartInit>(transport, api, `${base}/init`, {
        method: 'POST',
        body: { path: fields.folder, filename: fields.filename, contentType: fields.contentType, fileSize: fields.size },
        signal,
        failure: 'init_failed',
      });
      // Never skipped: no onConflict is sent, and the server's default replaces.
      if (init.outcome === 'skipped') throw new TransferFailure({ code: 'init_failed', serverMessage: 'skipped' });
      // The journal's plan must be the server's: both grow the part size the same way past 10,000 parts.
      if (init.partSize !== plan.partSize) throw new TransferFailure({ code: 'init_failed', serverMessage: `part size ${init.partSize}` });
      path = init.path;
      return { fileId: init.key, uploadId: init.uploadId };
    },
    storedParts: async () => undefined,
    async sign(ref, partNumbers, signal) {
      const signed = await callApi<{ urls: { partNumber: number; url: string }[] }>(transport, api, `${base}/sign`, {
        method: 'POST',
        body: { ...refBody(ref), partNumbers },
        signal,
        failure: 'part_failed',
      });
      return { urls: signed.urls, until: untilHalfOf(FS_PART_URL_SECONDS) };
    },
    complete(ref, parts, signal) {
      const body = { ...refBody(ref), parts, contentType: fields.contentType, fileSize: fields.size };
      return callApi<FsUploadResult>(transport, api, `${base}/complete`, { method: 'POST', body, signal, failure: 'commit_failed' });
    },
    async abort(ref) {
      await callApi(transport, api, `${base}/abort`, { method: 'POST', body: refBody(ref), failure: 'unknown' });
    },
  };
}

/** What a file share's multipart task is made of: its journal description and its protocol. */
export function shareMultipartJob(input: {
  taskId: string;
  api: ApiAccess;
  transport: Transport;
  source: Blob;
  label: string;
  mimetype: string;
  storageConfigId?: string;
  options: ShareOptions;
  family: 's3' | 'url';
  sourceUrl?: string;
  resume?: JournalTask;
  progressWindow?: [number, number];
  /** A large file of a share batch: the batch's task id (the list shows the batch, not this upload). */
  batchOf?: string;
}): MultipartJob<FileShare> {
  const { taskId, api, transport, source, label, mimetype, storageConfigId, options, family, sourceUrl } = input;
  return {
    taskId,
    source,
    ...(input.resume && { resume: input.resume }),
    ...(input.progressWindow && { progressWindow: input.progressWindow }),
    describe: {
      kind: family === 's3' ? 'multipart' : 'url',
      label,
      ...(source instanceof File && { file: { name: source.name, size: source.size, lastModified: source.lastModified, type: source.type } }),
      ...(sourceUrl && { url: sourceUrl }),
      mimetype,
      ...(storageConfigId && { storageConfigId }),
      options,
      ...(input.batchOf && { batchOf: input.batchOf }),
    },
    protocol: shareProtocol(transport, api, {
      family,
      filename: label,
      mimetype,
      size: source.size,
      options,
      ...(storageConfigId && { storageConfigId }),
      ...(sourceUrl && { sourceUrl }),
    }),
  };
}
