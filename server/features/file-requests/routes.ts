import { Hono, type Context } from 'hono';
import {
  createFileRequestSchema,
  fileRequestCompleteSchema,
  fileRequestGrantRequestSchema,
  fileRequestInitSchema,
  fileRequestRefSchema,
  fileRequestSignSchema,
  updateFileRequestSchema,
} from '../../../contract/file-requests';
import { offsetQuery } from '../../../contract/lists';
import type { AppDeps, AppEnv } from '../../context';
import { ApiError } from '../../errors';
import { clientAddress, jsonBody, ok, publicBaseUrl, queryParams } from '../../http';
import { requirePermission } from '../auth/middleware';
import { LOGIN_WINDOW_MS, LoginRateLimiter } from '../auth/login-rate-limit';
import {
  abortRequestUpload,
  completeRequestUpload,
  initRequestUpload,
  listRequestParts,
  requestFolder,
  signRequestParts,
} from './uploads';
import { callerOf } from '../fs/resolve';
import { startUploadTransfer, uploadTransfer } from '../transfers/hooks';
import {
  checkGrant,
  createFileRequest,
  deleteFileRequest,
  dropPending,
  grantUpload,
  listFileRequests,
  listRequestUploads,
  ownRequest,
  presentRequest,
  receivedFiles,
  requestBySlug,
  toPublicFileRequest,
  updateFileRequest,
} from './requests';
import { senderMaxFileSize } from './limits';

export const FILE_REQUEST_PAGE_SIZE = 20;
/** Per client and request, in the login limit's window: grants asked (each one, right password or not) and uploads started. */
export const FILE_REQUEST_GRANTS_PER_WINDOW = 20;
export const FILE_REQUEST_UPLOADS_PER_WINDOW = 200;

/**
 * File requests: `/file-requests` for their creators (the admin: all of them; a key with the file permission: its
 * own), `/public/file-requests/{slug}` for senders without an account, whose uploads carry the grant they were given.
 */
export function fileRequestRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.route('/file-requests', managementRoutes(deps));
  app.route('/public/file-requests', senderRoutes(deps));
  return app;
}

function managementRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use('*', requirePermission('file'));

  app.post('/', jsonBody(createFileRequestSchema), async (c) => {
    const principal = c.get('principal');
    const input = c.req.valid('json');
    // A key needs the mount permission for a folder target (the file permission this route asks for the rest).
    if (input.target.kind === 'folder' && principal.kind === 'apiKey' && !principal.permissions.mount) {
      throw new ApiError(403, 'permission_required', { permission: 'mount' });
    }
    const folder = input.target.kind === 'folder' ? await requestFolder(deps, callerOf(principal), input.target.path) : null;
    return ok(c, await createFileRequest(deps, principal, input, folder), 'file_request_created', 201);
  });

  app.get('/', queryParams(offsetQuery(FILE_REQUEST_PAGE_SIZE, 100)), async (c) => {
    const { limit, offset } = c.req.valid('query');
    return ok(c, await listFileRequests(deps, c.get('principal'), limit, offset));
  });

  app.get('/:id', async (c) => ok(c, await presentRequest(deps, await ownRequest(deps, c.get('principal'), c.req.param('id')))));

  app.patch('/:id', jsonBody(updateFileRequestSchema), async (c) =>
    ok(c, await updateFileRequest(deps, c.get('principal'), c.req.param('id'), c.req.valid('json')), 'file_request_updated'),
  );

  app.delete('/:id', async (c) => {
    await deleteFileRequest(deps, c.get('principal'), c.req.param('id'), (rows) => dropPending(deps, rows));
    return ok(c, null, 'file_request_deleted');
  });

  app.get('/:id/uploads', async (c) => ok(c, await listRequestUploads(deps, c.get('principal'), c.req.param('id'))));

  return app;
}

/** A sender, as the admin's task manager names them: by the request they send through. */
const senderOf = (request: { id: string; title: string }) => ({ kind: 'fileRequest' as const, name: request.title, id: request.id });

function senderRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  const rule = (limit: number) => new LoginRateLimiter(deps.db, deps.now, { limit, windowMs: LOGIN_WINDOW_MS });
  const grants = rule(FILE_REQUEST_GRANTS_PER_WINDOW);
  const uploads = rule(FILE_REQUEST_UPLOADS_PER_WINDOW);
  /** 429 once this client spent its tries on this request. */
  const limited = async (limiter: LoginRateLimiter, c: Context<AppEnv>, what: string) => {
    const minutes = await limiter.attempt(`file-request-${what}:${clientAddress(c, deps)}|${c.req.param('slug')}`);
    if (minutes > 0) throw new ApiError(429, 'file_request_rate_limited', { minutes }, { retryAfterMinutes: minutes });
  };
  /** The request of the path and the grant of the call. */
  const granted = async (c: Context<AppEnv>) => {
    const request = await requestBySlug(deps, c.req.param('slug') ?? '');
    return { request, claims: checkGrant(deps, c.req.header('authorization'), request) };
  };

  // Nothing is spent by looking: no grant, no count.
  app.get('/:slug', async (c) => {
    const row = await requestBySlug(deps, c.req.param('slug'));
    return ok(c, toPublicFileRequest(await presentRequest(deps, row), await senderMaxFileSize(deps, row)));
  });

  app.post('/:slug/grant', jsonBody(fileRequestGrantRequestSchema), async (c) => {
    await limited(grants, c, 'grant');
    return ok(c, await grantUpload(deps, c.req.param('slug'), c.req.valid('json')), 'ok', 201);
  });

  /** What the sender sent, or what everyone sent when the request shows uploads. */
  app.get('/:slug/uploads', async (c) => {
    const { request, claims } = await granted(c);
    return ok(c, { items: await receivedFiles(deps, request.id, request.show_uploads === 1 ? undefined : claims.senderId) });
  });

  app.post('/:slug/multipart/init', jsonBody(fileRequestInitSchema), async (c) => {
    const { request, claims } = await granted(c);
    await limited(uploads, c, 'upload');
    const input = c.req.valid('json');
    const started = await initRequestUpload(deps, request, claims, input);
    await startUploadTransfer(deps, started.upload_id, { kind: 'file-request-upload', who: senderOf(request), name: started.filename, bytesTotal: input.size });
    return ok(c, started, 'ok', 201);
  });

  app.post('/:slug/multipart/sign', jsonBody(fileRequestSignSchema), async (c) => {
    const { request, claims } = await granted(c);
    const input = c.req.valid('json');
    const signed = await signRequestParts(deps, request, claims, input, publicBaseUrl(c, deps));
    (await uploadTransfer(deps, input.upload_id)).partsInFlight(input.partNumbers.length);
    return ok(c, signed);
  });

  app.get('/:slug/multipart/parts', queryParams(fileRequestRefSchema), async (c) => {
    const { request, claims } = await granted(c);
    return ok(c, await listRequestParts(deps, request, claims, c.req.valid('query')));
  });

  app.post('/:slug/multipart/complete', jsonBody(fileRequestCompleteSchema), async (c) => {
    const { request, claims } = await granted(c);
    const input = c.req.valid('json');
    const received = await completeRequestUpload(deps, request, claims, input);
    (await uploadTransfer(deps, input.upload_id)).end('completed', received.size);
    return ok(c, received, 'ok', 201);
  });

  app.post('/:slug/multipart/abort', jsonBody(fileRequestRefSchema), async (c) => {
    const { request, claims } = await granted(c);
    const input = c.req.valid('json');
    await abortRequestUpload(deps, request, claims, input);
    (await uploadTransfer(deps, input.upload_id)).end('cancelled');
    return ok(c, null);
  });

  return app;
}
