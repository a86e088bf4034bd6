import { MULTIPART_THRESHOLD } from '../../contract/parts';
import type { fsPresignSkippedSchema, FsPresign, FsUploadResult } from '../../contract/fs';
import { NO_SHARE_OPTIONS, type FsFileUpload, type FsItemsResult, type JournalTask, type JournalTaskSpec } from '../../contract/transfer';
import type * as v from 'valibot';
import { ProgressMeter } from '../engine/progress';
import type { Transport } from '../transport/http';
import { conflictPolicies, findConflicts } from './conflicts';
import { callApi } from '../transport/api';
import { putObject } from '../transport/put-object';
import { fsBase, fsProtocol } from './multipart-protocol';
import { multipartUpload, type MultipartContext } from './multipart-upload';

/** Where a file lands: its folder (with a dropped folder's sub-folders) and its name. */
export function fsTargetOf(command: Pick<FsFileUpload, 'folder' | 'relativePath' | 'file'>): { folder: string; filename: string } {
  const segments = (command.relativePath ?? command.file.name).split('/').filter(Boolean);
  const filename = segments.pop() ?? command.file.name;
  return { folder: `${command.folder}${segments.map((segment) => `${segment}/`).join('')}`, filename };
}

/** The journal's description of an fs upload: enough to ask for the same file again after a reload. */
export function fsDescription(command: FsFileUpload): Omit<JournalTaskSpec, 'taskId' | 'partSize' | 'partCount' | 'size'> {
  const { file } = command;
  const { folder } = fsTargetOf(command);
  return {
    kind: 'fs',
    label: command.relativePath ?? file.name,
    file: { name: file.name, size: file.size, lastModified: file.lastModified, type: file.type },
    mimetype: file.type || 'application/octet-stream',
    options: NO_SHARE_OPTIONS,
    fsFolder: folder,
    ...(command.batchOf && { batchOf: command.batchOf }),
  };
}

/** What a file left alone answers: its path, and nothing written. */
const skippedUpload = (path: string, mimetype: string): FsUploadResult => ({ path, size: 0, etag: '', mimetype, outcome: 'skipped' });

/**
 * A file on its own into a mount folder, the way the explorer sends it: a first run asks the server whether the
 * name is taken and, if so, sends nothing and answers the conflict for the user to decide on; a run with the
 * user's decision (`resolution`) writes as decided. A resumed upload continues as it started.
 */
export async function fsUploadAsking(command: FsFileUpload, context: MultipartContext, resume?: JournalTask): Promise<FsUploadResult | FsItemsResult> {
  if (resume?.uploadId) return fsUpload(command, context, resume);
  const name = command.relativePath ?? command.file.name;
  if (command.resolution) return fsUpload({ ...command, onConflict: conflictPolicies(command.resolution)(name) }, context, resume);
  const conflicts = await conflictsOf(context.transport, command, context.signal);
  if (conflicts.length > 0) return { succeeded: [], skipped: [], failed: [], conflicts };
  return fsUpload(command, context, resume);
}

function conflictsOf(transport: Transport, command: FsFileUpload, signal: AbortSignal) {
  const { folder, filename } = fsTargetOf(command);
  const write = { path: command.relativePath ?? command.file.name, targetPath: `${folder}${filename}`, file: command.file };
  return findConflicts(transport, command.api, [write], signal);
}

/**
 * A local file into a mount folder: one presigned PUT (then commit) when small, the fs multipart routes in
 * parts when large, as the server signs them (S3 straight to the bucket, LOCAL through signed local URLs). A taken
 * name is handled as `onConflict` says (`fail` when not given: the server answers 409).
 */
export async function fsUpload(command: FsFileUpload, context: MultipartContext, resume?: JournalTask): Promise<FsUploadResult> {
  const { taskId, api, file } = command;
  const { folder, filename } = fsTargetOf(command);
  const contentType = file.type || 'application/octet-stream';
  const onConflict = command.onConflict ?? 'fail';
  context.emit({ type: 'engine.stage', taskId, stage: 'starting' });
  // Only a name known to be taken is given `skip` (conflictPolicies): it is left alone without a request.
  if (onConflict === 'skip') return skippedUpload(`${folder}${filename}`, contentType);
  if (file.size > MULTIPART_THRESHOLD) {
    return multipartUpload(
      {
        taskId,
        source: file,
        describe: fsDescription(command),
        protocol: fsProtocol(context.transport, api, { folder, filename, contentType, size: file.size, onConflict }),
        ...(resume?.uploadId && { resume }),
      },
      context,
    );
  }
  context.emit({ type: 'engine.stage', taskId, stage: 'initializing' });
  const presign = await callApi<FsPresign | v.InferOutput<typeof fsPresignSkippedSchema>>(context.transport, api, `${fsBase(api)}/presign`, {
    method: 'POST',
    body: { path: folder, fileName: filename, contentType, fileSize: file.size, onConflict },
    signal: context.signal,
    failure: 'presign_failed',
  });
  if (presign.outcome === 'skipped') return skippedUpload(presign.targetPath, contentType);
  context.emit({ type: 'engine.stage', taskId, stage: 'uploading' });
  const meter = new ProgressMeter(file.size, (progress) => context.emit({ type: 'engine.progress', taskId, progress }));
  meter.update(0);
  const etag = await putObject(context.transport, presign.uploadUrl, file, presign.contentType, meter, context.signal);
  context.emit({ type: 'engine.stage', taskId, stage: 'completing' });
  const result = await callApi<FsUploadResult>(context.transport, api, `${fsBase(api)}/presign/commit`, {
    method: 'POST',
    body: { targetPath: presign.targetPath, key: presign.key, mountId: presign.mountId, contentType: presign.contentType, fileSize: file.size, ...(etag && { etag }) },
    signal: context.signal,
    failure: 'commit_failed',
  });
  context.emit({ type: 'engine.stage', taskId, stage: 'completed' });
  return { ...result, outcome: result.outcome ?? presign.outcome };
}
