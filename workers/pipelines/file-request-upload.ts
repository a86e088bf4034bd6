import type { FileRequestInitResponse, FileRequestUpload } from '../../contract/file-requests';
import { NO_SHARE_OPTIONS, type ApiAccess, type JournalTask, type RequestFileUpload } from '../../contract/transfer';
import { toTransferError, TransferFailure } from '../engine/failure';
import { callApi } from '../transport/api';
import type { Transport } from '../transport/http';
import { shareRefBody, shareStyleCalls, type MultipartProtocol } from './multipart-protocol';
import { multipartUpload, type MultipartContext, type MultipartJob } from './multipart-upload';

/**
 * A request's refusals in the server's own words: its 409 is a full request (not a taken link), its 413 its own
 * size limits, its 403 a grant for another request (not a storage the key may not use).
 */
async function inRequestWords<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    const failure = toTransferError(error);
    if (failure.serverMessage && [403, 409, 413].includes(failure.status ?? 0)) throw new TransferFailure({ ...failure, code: 'unknown' });
    throw error;
  }
}

/**
 * A file request's side of a multipart upload: `/public/file-requests/{slug}/multipart/*`, the share upload API's
 * calls with the sender's grant. The server names the file and plans its parts; the plan must be the journal's.
 */
export function requestProtocol(transport: Transport, api: ApiAccess, fields: { slug: string; filename: string; contentType: string; size: number }): MultipartProtocol<FileRequestUpload> {
  const base = `/public/file-requests/${encodeURIComponent(fields.slug)}/multipart`;
  return {
    ...shareStyleCalls(transport, api, base),
    async init(plan, signal) {
      const init = await inRequestWords(
        callApi<FileRequestInitResponse>(transport, api, `${base}/init`, {
          method: 'POST',
          body: { filename: fields.filename, content_type: fields.contentType, size: fields.size, part_size: plan.partSize },
          signal,
          failure: 'init_failed',
        }),
      );
      if (init.part_size !== plan.partSize) throw new TransferFailure({ code: 'init_failed', serverMessage: `part size ${init.part_size}` });
      return { fileId: init.file_id, uploadId: init.upload_id };
    },
    complete(ref, parts, signal) {
      return inRequestWords(callApi<FileRequestUpload>(transport, api, `${base}/complete`, { method: 'POST', body: { ...shareRefBody(ref), parts }, signal, failure: 'commit_failed' }));
    },
  };
}

/**
 * A file through a file request: the multipart pipeline of every large upload, even for a small file (one part),
 * so that every file resumes after a reload from what storage holds and reports only what storage acknowledged.
 */
export function requestFileUpload(command: RequestFileUpload, context: MultipartContext, resume?: JournalTask): Promise<FileRequestUpload> {
  const { taskId, api, slug, file } = command;
  const contentType = file.type || 'application/octet-stream';
  const job: MultipartJob<FileRequestUpload> = {
    taskId,
    source: file,
    ...(resume?.uploadId && { resume }),
    describe: {
      kind: 'fileRequest',
      label: file.name,
      file: { name: file.name, size: file.size, lastModified: file.lastModified, type: file.type },
      mimetype: contentType,
      options: NO_SHARE_OPTIONS,
      requestSlug: slug,
    },
    protocol: requestProtocol(context.transport, api, { slug, filename: file.name, contentType, size: file.size }),
  };
  return multipartUpload(job, context);
}
