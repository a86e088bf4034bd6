import type { FileShare, PresignResponse } from '../../contract/files';
import type { EngineEvent, FileShareUpload, UploadStage } from '../../contract/transfer';
import { ProgressMeter } from '../engine/progress';
import { callApi, filesScope } from '../transport/api';
import type { Transport } from '../transport/http';
import { putObject } from '../transport/put-object';

export interface PipelineContext {
  signal: AbortSignal;
  emit: (event: EngineEvent) => void;
  transport: Transport;
}

/**
 * One file as a file share: ask for a presigned URL, PUT the bytes straight to storage with progress, then
 * commit. When the PUT fails or is cancelled, the half-created record is deleted.
 */
export async function presignedUpload(command: FileShareUpload, context: PipelineContext): Promise<FileShare> {
  const { taskId, api, file, options } = command;
  const stage = (value: UploadStage) => context.emit({ type: 'engine.stage', taskId, stage: value });

  stage('starting');
  stage('initializing');
  const presign = await callApi<PresignResponse>(context.transport, api, '/s3/presign', {
    method: 'POST',
    body: {
      ...(command.storageConfigId && { s3_config_id: command.storageConfigId }),
      filename: file.name,
      mimetype: command.mimetype,
      size: file.size,
      ...(options.slug && { slug: options.slug }),
    },
    signal: context.signal,
    failure: 'presign_failed',
  });

  stage('uploading');
  const meter = new ProgressMeter(file.size, (progress) => context.emit({ type: 'engine.progress', taskId, progress }));
  meter.update(0);
  let etag: string | undefined;
  try {
    etag = await putObject(context.transport, presign.upload_url, file, presign.contentType, meter, context.signal);
  } catch (error) {
    // The record exists but its bytes never arrived: remove it rather than leave an orphan behind.
    await callApi(context.transport, api, `/${filesScope(api)}/files/${encodeURIComponent(presign.file_id)}`, {
      method: 'DELETE',
      failure: 'unknown',
    }).catch(() => undefined);
    throw error;
  }

  stage('processing');
  stage('completing');
  const share = await callApi<FileShare>(context.transport, api, '/s3/commit', {
    method: 'POST',
    body: {
      file_id: presign.file_id,
      s3_config_id: command.storageConfigId,
      storage_path: presign.storage_path,
      s3_url: presign.s3_url,
      filename: file.name,
      mimetype: command.mimetype,
      size: file.size,
      ...(etag && { etag }),
      ...options,
      // The slug was claimed at presign time.
      slug: undefined,
    },
    signal: context.signal,
    failure: 'commit_failed',
  });
  stage('completed');
  return share;
}
