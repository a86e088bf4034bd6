import { Hono, type Context } from 'hono';
import {
  commitRequestSchema,
  directUploadQuerySchema,
  fileListQuerySchema,
  presignRequestSchema,
  updateFileRequestSchema,
} from '../../../contract/files';
import { batchDeleteRequestSchema } from '../../../contract/lists';
import { creatorOf, type AppDeps, type AppEnv } from '../../context';
import { jsonBody, ok, publicBaseUrl, queryParams } from '../../http';
import { requireAdmin, requirePermission } from '../auth/middleware';
import { deleteFile, deleteFiles, getFile, listFiles, updateFile, type FileScope } from './management';
import { commitUpload, presignUpload } from './pending-uploads';
import { isSlugAvailable } from '../shares/slugs';
import { directUploadAnswer, receiveDirectUpload, receiveFormUpload } from './form-uploads';
import { actorOf, watchedRequest } from '../transfers/hooks';

/**
 * Uploads (`/upload` form, `/upload-direct/{filename}` body, `/s3/presign` + `/s3/commit`), the uploader's slug
 * check, and file management under `/admin/files` (every file) and `/user/files` (the caller's own).
 */
export function fileRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  app.post('/upload', requirePermission('file'), async (c) => {
    const { request, transfer, settle } = watchedRequest(deps, c.req.raw, { kind: 'share-upload', who: actorOf(c.get('principal')), name: '' });
    return ok(c, await settle(receiveFormUpload(deps, c.get('principal'), request, (name) => transfer.rename(name))), 'file_uploaded', 201);
  });

  app.put('/upload-direct/:filename', requirePermission('file'), queryParams(directUploadQuerySchema), async (c) => {
    const filename = c.req.param('filename');
    const { request, settle } = watchedRequest(deps, c.req.raw, { kind: 'share-upload', who: actorOf(c.get('principal')), name: filename });
    const uploaded = await settle(receiveDirectUpload(deps, c.get('principal'), filename, c.req.valid('query'), request));
    return ok(c, directUploadAnswer(uploaded, publicBaseUrl(c, deps)), 'file_uploaded');
  });

  app.post('/s3/presign', requirePermission('file'), jsonBody(presignRequestSchema), async (c) =>
    ok(c, await presignUpload(deps, c.get('principal'), c.req.valid('json'), publicBaseUrl(c, deps)), 'upload_url_created'),
  );

  app.post('/s3/commit', requirePermission('file'), jsonBody(commitRequestSchema), async (c) => {
    const { share, created } = await commitUpload(deps, c.get('principal'), c.req.valid('json'));
    return ok(c, share, 'file_uploaded', created ? 201 : 200);
  });

  app.get('/slugs/file/:slug', requirePermission('file'), async (c) => {
    const slug = c.req.param('slug').trim();
    return ok(c, { slug, available: await isSlugAvailable(deps.db, 'files', slug) });
  });

  app.route('/admin/files', managedFileRoutes(deps, 'admin'));
  app.route('/user/files', managedFileRoutes(deps, 'user'));
  return app;
}

/** List, detail, update, delete and batch delete; admins see all files, keys (and the user routes) their own. */
function managedFileRoutes(deps: AppDeps, kind: 'admin' | 'user') {
  const app = new Hono<AppEnv>();
  app.use('*', kind === 'admin' ? requireAdmin : requirePermission('file'));
  const scopeOf = (c: Context<AppEnv>): FileScope =>
    kind === 'admin' ? { all: true } : { all: false, createdBy: creatorOf(c.get('principal')) };

  app.get('/', queryParams(fileListQuerySchema), async (c) => {
    const { limit, offset } = c.req.valid('query');
    return ok(c, await listFiles(deps, scopeOf(c), limit, offset));
  });

  app.post('/batch-delete', jsonBody(batchDeleteRequestSchema), async (c) => {
    const result = await deleteFiles(deps, scopeOf(c), c.req.valid('json').ids);
    const complete = result.missing === 0 && result.failed === 0;
    return ok(c, result, 'files_deleted', complete ? 200 : 202, result);
  });

  app.get('/:id', async (c) => ok(c, await getFile(deps, scopeOf(c), c.req.param('id'))));

  app.put('/:id', jsonBody(updateFileRequestSchema), async (c) =>
    ok(c, await updateFile(deps, scopeOf(c), c.req.param('id'), c.req.valid('json')), 'file_updated'),
  );

  app.delete('/:id', async (c) => {
    await deleteFile(deps, scopeOf(c), c.req.param('id'));
    return ok(c, null, 'file_deleted');
  });

  return app;
}
