import type { FileShare, PresignResponse } from '../../contract/files';
import { MULTIPART_THRESHOLD } from '../../contract/parts';
import type { EngineEvent, JournalTask, UrlShareUpload } from '../../contract/transfer';
import type { UrlInfo } from '../../contract/url-upload';
import { TransferFailure } from '../engine/failure';
import { ProgressMeter } from '../engine/progress';
import { callApi } from '../transport/api';
import { putObject } from '../transport/put-object';
import { shareMultipartJob } from './multipart-protocol';
import { multipartUpload, type MultipartContext } from './multipart-upload';

/** Share of the progress bar for the download: 0–49 %; the upload takes 50–99 %. */
const DOWNLOAD_WINDOW: [number, number] = [0, 49];
const UPLOAD_WINDOW: [number, number] = [50, 99];

/**
 * A file from a web address: ask the server about it, download it (straight from the source when its CORS
 * allows, else through the server's proxy), then upload it like a local file: one presigned PUT when small,
 * multipart when large. A cancel at any point drops what was created on the server.
 */
export async function urlUpload(
  command: UrlShareUpload,
  context: MultipartContext,
  resume?: JournalTask,
): Promise<FileShare> {
  const { taskId, api } = command;
  const emit = (event: EngineEvent) => context.emit(event);
  emit({ type: 'engine.stage', taskId, stage: 'starting' });

  emit({ type: 'engine.stage', taskId, stage: 'initializing' });
  const info = await callApi<UrlInfo>(context.transport, api, '/url/info', {
    method: 'POST',
    body: { url: command.url },
    signal: context.signal,
    failure: 'presign_failed',
  });
  const filename = command.filename?.trim() || info.filename;

  const blob = await download(command, info, context);
  const file = new File([blob], filename, { type: info.contentType });

  if (file.size > MULTIPART_THRESHOLD) {
    return multipartUpload(
      shareMultipartJob({
        taskId,
        api,
        transport: context.transport,
        source: file,
        label: filename,
        mimetype: info.contentType,
        ...(command.storageConfigId && { storageConfigId: command.storageConfigId }),
        options: command.options,
        family: 'url',
        sourceUrl: info.url,
        ...(resume?.uploadId && { resume }),
        progressWindow: UPLOAD_WINDOW,
      }),
      context,
    );
  }
  return singleUpload(command, file, info, context);
}

async function download(command: UrlShareUpload, info: UrlInfo, context: MultipartContext): Promise<Blob> {
  const { taskId, api } = command;
  const direct = info.corsAllowed;
  const url = direct ? info.url : `${api.baseUrl}/api/url/proxy?url=${encodeURIComponent(info.url)}`;
  const headers: Record<string, string> = {};
  if (!direct && api.authorization) headers.Authorization = api.authorization;
  let response: Response;
  try {
    response = await context.transport.fetch(url, { headers, signal: context.signal });
  } catch {
    throw new TransferFailure({ code: context.signal.aborted ? 'cancelled' : 'network' });
  }
  if (!response.ok || !response.body) throw new TransferFailure({ code: 'upload_failed', status: response.status });
  const total = info.size ?? Number(response.headers.get('Content-Length') ?? 0);
  const meter = new ProgressMeter(total, (progress) =>
    context.emit({
      type: 'engine.progress',
      taskId,
      progress: { ...progress, percent: Math.min(DOWNLOAD_WINDOW[1], Math.floor((progress.percent * DOWNLOAD_WINDOW[1]) / 100)) },
    }),
  );
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      loaded += value.length;
      if (total > 0) meter.update(Math.min(loaded, total));
    }
  } catch {
    throw new TransferFailure({ code: context.signal.aborted ? 'cancelled' : 'network' });
  }
  return new Blob(chunks as BlobPart[]);
}

async function singleUpload(command: UrlShareUpload, file: File, info: UrlInfo, context: MultipartContext): Promise<FileShare> {
  const { taskId, api } = command;
  const presign = await callApi<PresignResponse>(context.transport, api, '/url/presign', {
    method: 'POST',
    body: {
      url: info.url,
      ...(command.storageConfigId && { s3_config_id: command.storageConfigId }),
      filename: file.name,
      mimetype: file.type || 'application/octet-stream',
      size: file.size,
      ...(command.options.slug && { slug: command.options.slug }),
    },
    signal: context.signal,
    failure: 'presign_failed',
  });
  context.emit({ type: 'engine.stage', taskId, stage: 'uploading' });
  const meter = new ProgressMeter(file.size, (progress) =>
    context.emit({
      type: 'engine.progress',
      taskId,
      progress: { ...progress, percent: UPLOAD_WINDOW[0] + Math.floor(((UPLOAD_WINDOW[1] - UPLOAD_WINDOW[0]) * progress.percent) / 100) },
    }),
  );
  let etag: string | undefined;
  try {
    etag = await putObject(context.transport, presign.upload_url, file, presign.contentType, meter, context.signal);
  } catch (error) {
    await callApi(context.transport, api, '/url/cancel', { method: 'POST', body: { file_id: presign.file_id }, failure: 'unknown' }).catch(() => undefined);
    throw error;
  }
  context.emit({ type: 'engine.stage', taskId, stage: 'completing' });
  const share = await callApi<FileShare>(context.transport, api, '/url/commit', {
    method: 'POST',
    body: {
      file_id: presign.file_id,
      filename: file.name,
      mimetype: file.type,
      size: file.size,
      ...(etag && { etag }),
      ...command.options,
      slug: undefined,
    },
    signal: context.signal,
    failure: 'commit_failed',
  });
  context.emit({ type: 'engine.stage', taskId, stage: 'completed' });
  return share;
}
