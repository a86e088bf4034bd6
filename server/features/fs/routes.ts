import { Hono, type Context } from 'hono';
import {
  cacheClearRequestSchema,
  fsBatchCopyCommitRequestSchema,
  fsBatchCopyRequestSchema,
  fsBatchMoveCommitRequestSchema,
  fsBatchMoveRequestSchema,
  fsBatchRemoveRequestSchema,
  fsExistsRequestSchema,
  fsFileQuerySchema,
  fsLinkQuerySchema,
  fsListQuerySchema,
  fsMkdirRequestSchema,
  fsMultipartAbortRequestSchema,
  fsMultipartCompleteRequestSchema,
  fsMultipartInitRequestSchema,
  fsPartQuerySchema,
  fsPathQuerySchema,
  fsPresignCommitRequestSchema,
  fsPresignRequestSchema,
  fsRenameRequestSchema,
  fsSignRequestSchema,
  fsUpdateRequestSchema,
  fsUploadFormSchema,
} from '../../../contract/fs';
import type { AppDeps, AppEnv } from '../../context';
import { ApiError, badInput } from '../../errors';
import { batchCopy, commitClientCopies } from './copy';
import { existingAt } from './exists';
import { batchMove, commitMoves } from './move';
import { listFolder, listingPage, statPath } from './listing';
import { nameOf } from './paths';
import { callerOf, resolveInMount } from './resolve';
import { onStorage } from './storage-errors';
import {
  abortFsMultipart,
  commitFsUpload,
  completeFsMultipart,
  initFsMultipart,
  presignFsUpload,
  signFsParts,
  uploadFsPart,
} from './transfers';
import { receiveUploadBatch } from './upload-batch';
import { fileInFolder, makeFolder, removePath, removePaths, renamePath, saveText } from './writes';
import { writeWithPolicy } from './free-names';
import { receiveForm } from '../../forms/receive-form';
import { jsonBody, ok, parseInput, publicBaseUrl, queryParams, requestBody } from '../../http';
import { requireAdmin, requirePermission } from '../auth/middleware';
import { visibleMounts } from '../mounts/mounts';
import { clearMountCache } from './shared-directory-cache';
import { readSettings } from '../settings/settings';
import { stagingDirOf } from '../file-shares/form-uploads';
import { S3_MAX_PRESIGN_SECONDS } from '../../storage/s3-presign';
import { assertFits } from '../storages/upload-limits';
import { serveObject } from '../../storage/serve-object';
import { actorOf, counted, startUploadTransfer, uploadTransfer, watchedDownload, watchedRequest } from '../transfers/hooks';

const caller = (c: Context<AppEnv>) => callerOf(c.get('principal'));
const batchStatus = (failed: number) => (failed > 0 ? 202 : 200);

/**
 * The mount file system under `/admin/fs` (admins) and `/user/fs` (admins and keys with mount permission). Thin:
 * the contract's schemas normalise every path; server/fs confines and resolves it.
 */
export function fsRoutes(deps: AppDeps, kind: 'admin' | 'user') {
  const app = new Hono<AppEnv>();
  app.use('*', kind === 'admin' ? requireAdmin : requirePermission('mount'));

  app.get('/list', queryParams(fsListQuerySchema), async (c) => {
    const { path, refresh, offset, limit } = c.req.valid('query');
    const read = limit === undefined ? 'whole' : (offset ?? 0) > 0 ? 'nextPage' : 'firstPage';
    const listing = await listFolder(deps, caller(c), path, refresh, read);
    return ok(c, limit === undefined ? listing : listingPage(listing, offset ?? 0, limit));
  });

  app.get('/get', queryParams(fsPathQuerySchema), async (c) => ok(c, await statPath(deps, caller(c), c.req.valid('query').path)));

  const serve = (disposition: 'inline' | 'attachment') => async (c: Context<AppEnv>) => {
    // Parsed here rather than by a validator: a repeated `path` is read as its first value.
    const { path } = parseInput(fsFileQuerySchema, c.req.query());
    const target = await resolveInMount(deps, caller(c), path);
    const object = target.inner.length > 0 ? await onStorage(path.text, () => target.driver.stat(target.key)) : undefined;
    if (!object) throw new ApiError(404, 'fs_not_a_file', { path: path.text });
    const entry = await statPath(deps, caller(c), path);
    return serveObject(c.req.raw, {
      driver: target.driver,
      key: target.key,
      size: object.size,
      etag: object.etag,
      contentType: entry.mimetype ?? 'application/octet-stream',
      disposition,
      filename: nameOf(path),
      relay: watchedDownload(deps, 'download', actorOf(c.get('principal')), path.text),
    });
  };
  app.get('/download', serve('attachment'));
  app.get('/preview', serve('inline'));

  app.post('/exists', jsonBody(fsExistsRequestSchema), async (c) => {
    const { paths, hashes } = c.req.valid('json');
    return ok(c, await existingAt(deps, caller(c), paths, hashes));
  });

  app.post('/mkdir', jsonBody(fsMkdirRequestSchema), async (c) => {
    await makeFolder(deps, caller(c), c.req.valid('json').path);
    return ok(c, null, 'fs_folder_created', 201);
  });

  app.post('/upload', async (c) => {
    const { max_upload_size } = await readSettings(deps.db);
    const maxUploadBytes = Math.floor(max_upload_size * 1024 * 1024);
    const { request, transfer, settle } = watchedRequest(deps, c.req.raw, { kind: 'fs-upload', who: actorOf(c.get('principal')), name: '' });
    const { stored } = await settle(receiveForm(request, {
      // onConflict decides where the bytes go too: a form that sends it after the file is staged first.
      placementFields: ['path', 'onConflict'],
      stagingDir: stagingDirOf(deps),
      stagingLimit: maxUploadBytes,
      tooLarge: (seen) => {
        assertFits(seen, { maxUploadBytes });
        return new ApiError(413, 'body_too_large', { limit: String(maxUploadBytes) });
      },
      store: async (fields, file) => {
        try {
          const form = parseInput(fsUploadFormSchema, fields);
          const target = await fileInFolder(deps, caller(c), form.path, file.filename);
          transfer.rename(target.path.text);
          return await writeWithPolicy(deps, target, form.onConflict, file.stream, form.mimetype || file.mimeType);
        } finally {
          file.stream.resume();
        }
      },
      // A skipped upload wrote nothing, so there is nothing to take back.
      discard: async ({ target, result }) => {
        if (result.outcome !== 'skipped') await target.driver.delete(target.key);
      },
    }));
    return ok(c, stored.result, 'fs_uploaded', 201);
  });

  // A group of files into a folder, each stored or failed on its own (server/features/fs/upload-batch.ts).
  app.post('/upload-batch', async (c) => {
    const { request, transfer, settle } = watchedRequest(deps, c.req.raw, { kind: 'batch-upload', who: actorOf(c.get('principal')), name: '' });
    const result = await settle(receiveUploadBatch(deps, caller(c), request, c.get('lang'), (folder) => transfer.rename(folder)));
    const counts = { succeeded: result.succeeded.length, failed: result.failed.length };
    return ok(c, result, 'fs_uploaded_batch', batchStatus(result.failed.length), counts);
  });

  app.delete('/remove', queryParams(fsPathQuerySchema), async (c) => {
    await removePath(deps, caller(c), c.req.valid('query').path);
    return ok(c, null, 'fs_removed');
  });

  app.post('/batch-remove', jsonBody(fsBatchRemoveRequestSchema), async (c) => {
    const result = await removePaths(deps, caller(c), c.req.valid('json').paths, c.get('lang'));
    const counts = { succeeded: result.succeeded.length, failed: result.failed.length };
    return ok(c, result, 'fs_batch_removed', batchStatus(result.failed.length), counts);
  });

  app.post('/rename', jsonBody(fsRenameRequestSchema), async (c) => {
    const { oldPath, newPath } = c.req.valid('json');
    await renamePath(deps, caller(c), oldPath, newPath);
    return ok(c, null, 'fs_renamed');
  });

  app.post('/update', jsonBody(fsUpdateRequestSchema), async (c) => {
    const { path, content } = c.req.valid('json');
    return ok(c, await saveText(deps, caller(c), path, content), 'fs_saved');
  });

  app.get('/file-link', queryParams(fsLinkQuerySchema), async (c) => {
    const query = c.req.valid('query');
    const { path } = query;
    const entry = await statPath(deps, caller(c), path);
    if (entry.type !== 'file') throw new ApiError(400, 'fs_not_a_file', { path: path.text }, { field: 'path', issue: 'not_a_file' });
    const target = await resolveInMount(deps, caller(c), path);
    // S3 signs a URL for a week at most (LOCAL links take the schema's four).
    if (target.driver.type === 'S3' && query.expires_in > S3_MAX_PRESIGN_SECONDS) throw badInput('expires_in', 'too_large');
    const url = await onStorage(path.text, () =>
      target.driver.presignGet(target.key, {
        expiresInSeconds: query.expires_in,
        baseUrl: publicBaseUrl(c, deps),
        disposition: query.force_download ? 'attachment' : 'inline',
        filename: nameOf(path),
        contentType: entry.mimetype ?? 'application/octet-stream',
      }),
    );
    return ok(c, { url, path: path.text, expiresAt: new Date(deps.now().getTime() + query.expires_in * 1000).toISOString() });
  });

  app.post('/multipart/init', jsonBody(fsMultipartInitRequestSchema), async (c) => {
    const input = c.req.valid('json');
    const target = await fileInFolder(deps, caller(c), input.path, input.filename);
    const started = await initFsMultipart(deps, target, input);
    if (started.outcome !== 'skipped') {
      await startUploadTransfer(deps, started.uploadId, { kind: 'fs-upload', who: actorOf(c.get('principal')), name: started.path, bytesTotal: input.fileSize });
    }
    return ok(c, started, 'created', 201);
  });

  app.post('/multipart/part', queryParams(fsPartQuerySchema), async (c) => {
    const query = c.req.valid('query');
    const raw = requestBody(c);
    if (!raw) throw badInput('body', 'required');
    const length = c.req.header('content-length');
    const transfer = await uploadTransfer(deps, query.uploadId);
    const body = counted(raw, transfer);
    const part = await uploadFsPart(deps, caller(c), query, body, length ? Number(length) : undefined);
    c.header('ETag', `"${part.etag}"`);
    return ok(c, part);
  });

  app.post('/multipart/sign', jsonBody(fsSignRequestSchema), async (c) => {
    const input = c.req.valid('json');
    const urls = await signFsParts(deps, caller(c), input, publicBaseUrl(c, deps));
    (await uploadTransfer(deps, input.uploadId)).partsInFlight(input.partNumbers.length);
    return ok(c, { urls });
  });

  app.post('/multipart/complete', jsonBody(fsMultipartCompleteRequestSchema), async (c) => {
    const input = c.req.valid('json');
    const completed = await completeFsMultipart(deps, caller(c), input.path, input);
    (await uploadTransfer(deps, input.uploadId)).end('completed');
    return ok(c, completed, 'fs_uploaded', 201);
  });

  app.post('/multipart/abort', jsonBody(fsMultipartAbortRequestSchema), async (c) => {
    const input = c.req.valid('json');
    await abortFsMultipart(deps, caller(c), input.path, input);
    (await uploadTransfer(deps, input.uploadId)).end('cancelled');
    return ok(c, null);
  });

  app.post('/presign', jsonBody(fsPresignRequestSchema), async (c) => {
    const input = c.req.valid('json');
    const target = await fileInFolder(deps, caller(c), input.path, input.fileName);
    return ok(c, await presignFsUpload(deps, target, input, publicBaseUrl(c, deps)), 'upload_url_created');
  });

  app.post('/presign/commit', jsonBody(fsPresignCommitRequestSchema), async (c) => {
    const input = c.req.valid('json');
    return ok(c, await commitFsUpload(deps, caller(c), input.targetPath, input), 'fs_uploaded', 201);
  });

  app.post('/batch-copy', jsonBody(fsBatchCopyRequestSchema), async (c) => {
    const { items, skipExisting, onConflict } = c.req.valid('json');
    const policy = onConflict ?? (skipExisting ? 'skip' : 'replace');
    const result = await batchCopy(deps, caller(c), items, policy, publicBaseUrl(c, deps), c.get('lang'));
    const counts = { copied: result.copied.length, skipped: result.skipped.length, failed: result.failed.length };
    return ok(c, result, 'fs_copied', batchStatus(result.failed.length), counts);
  });

  app.post('/batch-copy-commit', jsonBody(fsBatchCopyCommitRequestSchema), async (c) => {
    const result = await commitClientCopies(deps, caller(c), c.req.valid('json'), c.get('lang'));
    const counts = { verified: result.succeeded.length, failed: result.failed.length };
    return ok(c, result, 'fs_copy_verified', batchStatus(result.failed.length), counts);
  });

  app.post('/batch-move', jsonBody(fsBatchMoveRequestSchema), async (c) => {
    const { items, onConflict } = c.req.valid('json');
    const result = await batchMove(deps, caller(c), items, onConflict, publicBaseUrl(c, deps), c.get('lang'));
    const counts = { moved: result.moved.length, skipped: result.skipped.length, failed: result.failed.length };
    return ok(c, result, 'fs_moved', batchStatus(result.failed.length), counts);
  });

  app.post('/batch-move-commit', jsonBody(fsBatchMoveCommitRequestSchema), async (c) => {
    const result = await commitMoves(deps, caller(c), c.req.valid('json'), c.get('lang'));
    const counts = { moved: result.succeeded.length, failed: result.failed.length };
    return ok(c, result, 'fs_move_verified', batchStatus(result.failed.length), counts);
  });

  return app;
}

/** `POST /{admin,user}/cache/clear {mountId?}`: one mount's cached listings (that the caller may see), or all. */
export function cacheRoutes(deps: AppDeps, kind: 'admin' | 'user') {
  const app = new Hono<AppEnv>();
  app.post('/clear', kind === 'admin' ? requireAdmin : requirePermission('mount'), jsonBody(cacheClearRequestSchema), async (c) => {
    const { mountId } = c.req.valid('json');
    const mounts = await visibleMounts(deps, c.get('principal'));
    const chosen = mountId === undefined ? mounts : mounts.filter((mount) => mount.id === mountId);
    if (mountId !== undefined && chosen.length === 0) throw new ApiError(404, 'mount_not_found');
    let cleared = 0;
    for (const mount of chosen) cleared += await clearMountCache(deps, mount.id);
    return ok(c, { cleared }, 'cache_cleared', 200, { cleared });
  });
  return app;
}
