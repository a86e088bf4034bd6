import { Hono } from 'hono';
import {
  multipartAbortRequestSchema,
  multipartCompleteRequestSchema,
  multipartInitRequestSchema,
  multipartPartsQuerySchema,
  multipartSignRequestSchema,
} from '../../../contract/multipart';
import type { AppDeps, AppEnv } from '../../context';
import { jsonBody, ok, publicBaseUrl, queryParams } from '../../http';
import { requirePermission } from '../auth/middleware';
import {
  abortMultipartUpload,
  completeMultipartUpload,
  initMultipartUpload,
  listUploadedParts,
  signParts,
  type UploadFamily,
} from './multipart';
import { actorOf, startUploadTransfer, uploadTransfer } from '../transfers/hooks';

/**
 * Multipart uploads of file shares, mounted at `/s3/multipart` (local files) and `/url/multipart` (URL
 * uploads): init → sign a few parts at a time → PUT each part straight to storage → complete (or abort).
 * `parts` lists what storage holds, for resuming. Only the creator of an upload may touch it.
 */
export function multipartRoutes(deps: AppDeps, family: UploadFamily) {
  const app = new Hono<AppEnv>();
  app.use('*', requirePermission('file'));

  app.post('/init', jsonBody(multipartInitRequestSchema), async (c) => {
    const input = c.req.valid('json');
    const started = await initMultipartUpload(deps, c.get('principal'), input, family);
    await startUploadTransfer(deps, started.upload_id, { kind: 'share-upload', who: actorOf(c.get('principal')), name: input.filename, bytesTotal: input.size });
    return ok(c, started, 'multipart_started');
  });

  app.post('/sign', jsonBody(multipartSignRequestSchema), async (c) => {
    const input = c.req.valid('json');
    const signed = await signParts(deps, c.get('principal'), input, publicBaseUrl(c, deps));
    (await uploadTransfer(deps, input.upload_id)).partsInFlight(input.partNumbers.length);
    return ok(c, signed, 'multipart_parts_signed');
  });

  app.get('/parts', queryParams(multipartPartsQuerySchema), async (c) =>
    ok(c, await listUploadedParts(deps, c.get('principal'), c.req.valid('query'))),
  );

  app.post('/complete', jsonBody(multipartCompleteRequestSchema), async (c) => {
    const input = c.req.valid('json');
    const { share, created } = await completeMultipartUpload(deps, c.get('principal'), input);
    (await uploadTransfer(deps, input.upload_id)).end('completed', share.size);
    return ok(c, share, 'file_uploaded', created ? 201 : 200);
  });

  app.post('/abort', jsonBody(multipartAbortRequestSchema), async (c) => {
    const input = c.req.valid('json');
    await abortMultipartUpload(deps, c.get('principal'), input);
    (await uploadTransfer(deps, input.upload_id)).end('cancelled');
    return ok(c, null, 'multipart_aborted');
  });

  return app;
}
