import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { StorageTestResult } from '../../../contract/storage';
import type { AppDeps } from '../../context';
import { translate, type Lang, type MessageKey, type MessageParams, type MessageRef } from '../../i18n/messages';
import type { StorageDriver } from '../../storage/driver';
import { reasonOf } from '../../storage/reason';
import { driverFor, type StorageConfigRow } from '../../storage/registry';

type Check = StorageTestResult['checks']['read'];

/** Each request of the test gives up after this long, so a dead endpoint cannot hang the admin's page. */
const CHECK_TIMEOUT_MS = 15_000;

const withTimeout = <T>(promise: Promise<T>, what: string): Promise<T> =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(Object.assign(new Error(`${what} timed out`), { name: 'TimeoutError' })), CHECK_TIMEOUT_MS).unref(),
    ),
  ]);

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/**
 * `POST /api/s3-configs/{id}/test`: read (list), write+delete (a probe object written, read back, deleted),
 * CORS (a browser on `origin` may PUT and read the ETag) and a presigned PUT, each reported on its own.
 * Probe objects go under `<default folder>/clipstash-probe/` and are removed afterwards.
 */
export async function testStorageConfig(deps: AppDeps, config: StorageConfigRow, origin: string, lang: Lang): Promise<StorageTestResult> {
  const driver = driverFor(deps, config);
  const say = (ok: boolean, key: MessageKey, params: MessageParams = {}): Check => ({ ok, message: translate(key, lang, params) });
  const probeKey = () => `${config.default_folder ? `${config.default_folder}/` : ''}clipstash-probe/${randomUUID()}.txt`;

  const read = await withTimeout(driver.checkAccess(), 'listing')
    .then(() => say(true, 'check_read_ok'))
    .catch((error: unknown) => say(false, 'check_read_failed', { reason: reasonOf(error) }));

  const write = await writeCheck(driver, probeKey())
    .then(() => say(true, 'check_write_ok'))
    .catch((error: unknown) => say(false, 'check_write_failed', { reason: reasonOf(error) }));

  let cors: Check;
  let presignedPut: Check;
  if (driver.type === 'LOCAL') {
    // Our own route answers LOCAL URLs with `Access-Control-Allow-Origin: *` and `Expose-Headers: ETag`.
    cors = say(true, 'check_cors_local');
    presignedPut = await localPresignCheck(driver, probeKey(), origin)
      .then(() => say(true, 'check_presign_ok'))
      .catch((error: unknown) => say(false, 'check_presign_failed', { reason: reasonOf(error) }));
  } else {
    const outcome = await s3PresignAndCorsCheck(driver, probeKey(), origin);
    presignedPut = outcome.putError
      ? say(false, 'check_presign_failed', { reason: outcome.putError })
      : say(true, 'check_presign_ok');
    cors =
      outcome.corsError !== undefined
        ? say(false, 'check_cors_blocked', { origin, reason: outcome.corsError })
        : outcome.etagExposed
          ? say(true, 'check_cors_ok', { origin })
          : say(false, 'check_cors_no_etag');
  }
  const checks = { read, write, cors, presignedPut };
  return { ok: Object.values(checks).every((check) => check.ok), checks };
}

async function writeCheck(driver: StorageDriver, key: string) {
  const bytes = randomBytes(64);
  try {
    const head = await withTimeout(driver.put(key, Readable.from([bytes]), { contentType: 'text/plain' }), 'writing');
    if (head.size !== bytes.length) throw new Error(`wrote ${head.size} bytes instead of ${bytes.length}`);
    const back = await withTimeout(driver.get(key).then(readAll), 'reading back');
    if (!back.equals(bytes)) throw new Error('the object read back differs from what was written');
    await withTimeout(driver.delete(key), 'deleting');
    if (await withTimeout(driver.head(key), 'checking the deletion')) throw new Error('the test object is still there after delete');
  } catch (error) {
    await driver.delete(key).catch(() => undefined);
    throw error;
  }
}

/** LOCAL: the signed URL names this server; the bytes go through the same driver the URL's route uses. */
async function localPresignCheck(driver: StorageDriver, key: string, origin: string) {
  const url = new URL(await driver.presignPut(key, { contentType: 'text/plain', size: 16, expiresInSeconds: 60, baseUrl: origin }));
  if (!url.searchParams.get('sig')) throw new Error('the URL carries no signature');
  try {
    await driver.put(key, Readable.from([randomBytes(16)]), { contentType: 'text/plain' });
    if ((await driver.head(key))?.size !== 16) throw new Error('the object did not arrive whole');
  } finally {
    await driver.delete(key).catch(() => undefined);
  }
}

/**
 * S3: a preflight as a browser on `origin` would send it, then the PUT itself with an Origin header; the PUT's
 * answer shows whether the ETag is exposed.
 */
async function s3PresignAndCorsCheck(driver: StorageDriver, key: string, origin: string) {
  let putError: string | MessageRef | undefined;
  let corsError: string | MessageRef | undefined;
  let etagExposed = false;
  try {
    const url = await driver.presignPut(key, { contentType: 'text/plain', size: 16, expiresInSeconds: 300, baseUrl: origin });
    try {
      const preflight = await fetch(url, {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'PUT', 'Access-Control-Request-Headers': 'content-type' },
        signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
      });
      const allowOrigin = preflight.headers.get('access-control-allow-origin');
      const allowMethods = (preflight.headers.get('access-control-allow-methods') ?? '').toUpperCase();
      if (!preflight.ok) corsError = `preflight answered HTTP ${preflight.status}`;
      else if (allowOrigin !== '*' && allowOrigin !== origin) corsError = 'the origin is not allowed';
      else if (allowMethods && !allowMethods.split(/\s*,\s*/).includes('PUT')) corsError = 'PUT is not an allowed method';
      await preflight.body?.cancel();
    } catch (error) {
      corsError = reasonOf(error);
    }
    const bytes = randomBytes(16);
    const res = await fetch(url, {
      method: 'PUT',
      body: bytes,
      headers: { 'Content-Type': 'text/plain', Origin: origin },
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
    });
    const text = await res.text();
    if (!res.ok) putError = `HTTP ${res.status}${s3ErrorCode(text)}`;
    else {
      const expected = createHash('md5').update(bytes).digest('hex');
      const etag = (res.headers.get('etag') ?? '').replace(/"/g, '');
      const head = await withTimeout(driver.head(key), 'checking the upload');
      if (head?.size !== bytes.length) putError = 'the object did not arrive whole';
      else if (etag && etag !== expected) putError = `unexpected ETag ${etag}`;
      const exposed = (res.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/\s*,\s*/);
      etagExposed = exposed.includes('etag') || exposed.includes('*');
      if (corsError === undefined && !res.headers.get('access-control-allow-origin')) corsError = 'no Access-Control-Allow-Origin on the upload';
    }
  } catch (error) {
    putError = reasonOf(error);
    corsError ??= putError;
  } finally {
    await driver.delete(key).catch(() => undefined);
  }
  return { putError, corsError, etagExposed };
}

/**
 * ` (Code)` from an S3 XML error body: S3's fixed vocabulary (`AccessDenied`, `SignatureDoesNotMatch`) tells the
 * admin what to fix; its free-text message and anything else in the body stay out of the answer.
 */
function s3ErrorCode(body: string): string {
  const code = /<Code>([A-Za-z]{1,64})<\/Code>/.exec(body)?.[1];
  return code ? ` (${code})` : '';
}
