import { Transform, Readable } from 'node:stream';
import { Hono, type Context } from 'hono';
import type { AppDeps, AppEnv } from '../../context';
import { ApiError } from '../../errors';
import { assertRequestTakesPart } from '../file-requests/requests';
import { findStorageConfig } from './configs';
import { InvalidPartError, isRelayed, MultipartUploadNotFoundError, ObjectNotFoundError, UnsafeKeyError, type RelayedStorageDriver } from '../../storage/driver';
import { LOCAL_STORAGE_PREFIX, verifyLocalGroupUrl, verifyLocalUrl } from '../../storage/local-urls';
import { driverFor } from '../../storage/registry';
import { EXPOSED_HEADERS, serveObject } from '../../storage/serve-object';
import { uploadTransfer, VISITOR, watchedDownload } from '../transfers/hooks';
import { requestBody } from '../../http';
import { responseBody } from '../../storage/response-body';

class TooManyBytes extends Error {}

/** The objects' bytes one after another, each streamed from disk in turn (one file open at a time). */
async function* concatenated(driver: RelayedStorageDriver, keys: string[]): AsyncGenerator<Buffer> {
  for (const key of keys) yield* (await driver.get(key)) as AsyncIterable<Buffer>;
}

/** `/api/local-storage/{configId}/{key…}` → the config id and the key, percent-decoded segment by segment. */
function target(c: Context<AppEnv>): { configId: string; key: string } {
  const path = new URL(c.req.url).pathname.slice(LOCAL_STORAGE_PREFIX.length + 1);
  const [configPart, ...keyParts] = path.split('/');
  try {
    return { configId: decodeURIComponent(configPart ?? ''), key: keyParts.map(decodeURIComponent).join('/') };
  } catch {
    throw new ApiError(403, 'signed_url_invalid');
  }
}

/**
 * The "presigned" URLs of storages whose bytes pass through this server (LOCAL, WebDAV, SFTP, FTP): PUT stores the
 * body (at most the signed size), GET/HEAD read with Range. The signature is the only credential, as with S3;
 * answers carry CORS headers for any origin and expose ETag.
 */
export function localStorageRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  app.use('*', async (c, next) => {
    await next();
    c.res.headers.set('Access-Control-Allow-Origin', '*');
    c.res.headers.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  });

  app.options('*', (c) => {
    const requested = c.req.header('access-control-request-headers');
    return c.body(null, 204, {
      'Access-Control-Allow-Methods': 'GET, HEAD, PUT',
      ...(requested ? { 'Access-Control-Allow-Headers': requested } : {}),
      'Access-Control-Max-Age': '3000',
    });
  });

  async function relayedDriverOf(configId: string): Promise<RelayedStorageDriver> {
    const config = await findStorageConfig(deps.db, configId);
    if (!config || config.storage_type === 'S3') throw new ApiError(404, 'storage_config_not_found');
    const driver = driverFor(deps, config);
    if (!isRelayed(driver)) throw new ApiError(404, 'storage_config_not_found');
    return driver;
  }

  function grantOf(c: Context<AppEnv>, method: 'PUT' | 'GET') {
    const { configId, key } = target(c);
    const check = verifyLocalUrl(deps.secrets, deps.now(), method, configId, key, new URL(c.req.url).searchParams);
    if (!check.ok) throw new ApiError(403, check.problem === 'expired' ? 'signed_url_expired' : 'signed_url_invalid');
    return check.grant;
  }

  app.put('/:configId/*', async (c) => {
    const grant = grantOf(c, 'PUT');
    if (grant.method !== 'PUT') throw new ApiError(403, 'signed_url_invalid');
    const driver = await relayedDriverOf(grant.configId);
    // Write once: a committed share's bytes cannot be swapped through a URL that is still valid. (A part URL
    // cannot touch the object: its upload ends when the share is committed.)
    const committed = grant.part
      ? undefined
      : await deps.db
          .selectFrom('files')
          .select('id')
          .where('storage_config_id', '=', grant.configId)
          .where('storage_path', '=', grant.key)
          .where('status', '=', 'committed')
          .executeTakeFirst();
    if (committed) throw new ApiError(409, 'upload_already_committed');
    if (grant.part) await assertRequestTakesPart(deps, grant.key, grant.part.uploadId);
    const declared = Number(c.req.header('content-length') ?? Number.NaN);
    const tooLarge = () => new ApiError(413, 'upload_body_too_large', { size: grant.size }, { size: grant.size });
    if (declared > grant.size) throw tooLarge();
    // A part's bytes count into its upload's transfer (the admin's task manager); S3 parts never pass here.
    const transfer = grant.part && (await uploadTransfer(deps, grant.part.uploadId));

    let seen = 0;
    const limit = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        seen += chunk.length;
        transfer?.progress(chunk.length);
        callback(seen > grant.size ? new TooManyBytes() : null, chunk);
      },
    });
    // The driver attaches a moment later; a refusal before then must still reach it, not crash the process.
    limit.on('error', () => undefined);
    const source = requestBody(c) ?? Readable.from([]);
    source.on('error', (error) => limit.destroy(error));
    try {
      const body = source.pipe(limit);
      const head = grant.part
        ? await driver.uploadPart(grant.key, grant.part.uploadId, grant.part.partNumber, body, { size: Number.isFinite(declared) ? declared : undefined, resendable: true })
        : await driver.put(grant.key, body, { contentType: c.req.header('content-type') ?? 'application/octet-stream' });
      transfer?.partsInFlight(-1);
      return c.body(null, 200, { ETag: `"${head.etag}"` });
    } catch (error) {
      source.destroy();
      if (error instanceof TooManyBytes) throw tooLarge();
      if (error instanceof UnsafeKeyError || error instanceof InvalidPartError) throw new ApiError(403, 'signed_url_invalid');
      if (error instanceof MultipartUploadNotFoundError) throw new ApiError(404, 'multipart_upload_not_found');
      throw error;
    }
  });

  // Several whole files in one answer (a copy's read group): registered before the one-key route below.
  app.get('/:configId', async (c) => {
    const check = verifyLocalGroupUrl(deps.secrets, deps.now(), c.req.param('configId'), new URL(c.req.url).searchParams);
    if (!check.ok) throw new ApiError(403, check.problem === 'expired' ? 'signed_url_expired' : 'signed_url_invalid');
    const { files } = check.grant;
    const driver = await relayedDriverOf(check.grant.configId);
    // Every file is checked before the first byte: once the answer has begun, a failure can only cut it short.
    for (const { key, size } of files) {
      let stored;
      try {
        stored = await driver.sizeOf(key);
      } catch (error) {
        if (error instanceof UnsafeKeyError) throw new ApiError(403, 'signed_url_invalid');
        throw error;
      }
      // A file that changed since the URL was signed would shift every byte after it.
      if (stored !== size) throw new ApiError(404, 'not_found');
    }
    const total = files.reduce((sum, { size }) => sum + size, 0);
    return new Response(responseBody(Readable.from(concatenated(driver, files.map(({ key }) => key)))), {
      headers: {
        'Content-Type': 'application/octet-stream',
        'Content-Length': String(total),
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  });

  app.get('/:configId/*', async (c) => {
    const grant = grantOf(c, 'GET');
    if (grant.method !== 'GET') throw new ApiError(403, 'signed_url_invalid');
    const driver = await relayedDriverOf(grant.configId);
    let head;
    try {
      head = await driver.head(grant.key);
    } catch (error) {
      if (error instanceof UnsafeKeyError) throw new ApiError(403, 'signed_url_invalid');
      throw error;
    }
    if (!head) throw new ApiError(404, 'not_found');
    try {
      return await serveObject(c.req.raw, {
        driver,
        key: grant.key,
        size: head.size,
        etag: head.etag,
        contentType: grant.contentType || 'application/octet-stream',
        disposition: grant.disposition,
        filename: grant.filename || grant.key.split('/').pop() || 'file',
        relay: watchedDownload(deps, 'download', VISITOR, grant.filename || grant.key),
      });
    } catch (error) {
      if (error instanceof ObjectNotFoundError) throw new ApiError(404, 'not_found');
      throw error;
    }
  });

  return app;
}
