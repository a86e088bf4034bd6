import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { StorageTestResult, StorageTestStep } from '../../../contract/storage';
import type { AppDeps } from '../../context';
import { ApiError } from '../../errors';
import { translate, type Lang, type MessageKey, type MessageParams, type MessageRef } from '../../i18n/messages';
import type { StorageDriver } from '../../storage/driver';
import { reasonOf } from '../../storage/reason';
import { driverFor, keyFolderOf, type StorageConfigRow } from '../../storage/registry';
import { assertHostAllowed } from './remote-configs';

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
 * `POST /api/s3-configs/{id}/test`: the steps in order (connect, list, write, read back, delete: a probe object under
 * `<default folder>/clipstash-probe/`, removed afterwards), then CORS (a browser on `origin` may PUT and read the
 * ETag) and a presigned PUT. `steps` tells each step in words; `checks` groups them as before.
 */
export async function testStorageConfig(deps: AppDeps, config: StorageConfigRow, origin: string, lang: Lang): Promise<StorageTestResult> {
  const say = (ok: boolean, key: MessageKey, params: MessageParams = {}): Check => ({ ok, message: translate(key, lang, params) });
  const probeKey = () => `${keyFolderOf(config) ? `${keyFolderOf(config)}/` : ''}clipstash-probe/${randomUUID()}.txt`;
  const { steps, driver, failure = '' } = await runSteps(deps, config, probeKey(), say, lang);
  const stepOk = (step: StorageTestStep) => steps.find((one) => one.step === step)?.ok === true;

  const read = stepOk('list') ? say(true, 'check_read_ok') : say(false, 'check_read_failed', { reason: failure });
  const write = stepOk('write') && stepOk('read') && stepOk('delete') ? say(true, 'check_write_ok') : say(false, 'check_write_failed', { reason: failure });

  let cors: Check;
  let presignedPut: Check;
  if (!driver) {
    cors = say(false, 'check_cors_blocked', { origin, reason: failure });
    presignedPut = say(false, 'check_presign_failed', { reason: failure });
  } else if (driver.type !== 'S3') {
    // Our own route answers these storages' URLs with `Access-Control-Allow-Origin: *` and `Expose-Headers: ETag`.
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
  return { ok: Object.values(checks).every((check) => check.ok), checks, steps };
}

type Say = (ok: boolean, key: MessageKey, params?: MessageParams) => Check;
type Step = StorageTestResult['steps'][number];

/**
 * Connect (the host allowed, the driver made, the base folder reached), list, write, read back, delete: each in
 * turn, each failure said with its reason, the steps after it said to be not tried.
 */
async function runSteps(
  deps: AppDeps,
  config: StorageConfigRow,
  key: string,
  say: Say,
  lang: Lang,
): Promise<{ steps: Step[]; driver?: StorageDriver; failure?: string | MessageRef }> {
  const bytes = randomBytes(64);
  let driver: StorageDriver | undefined;
  const connected = () => driver as StorageDriver;
  const plan: [StorageTestStep, () => Promise<unknown>][] = [
    [
      'connect',
      async () => {
        await assertHostAllowed(deps, config);
        driver = driverFor(deps, config);
        // A remote server is reached and signed in to by a stat of a name in the base folder (a stat of the base
        // itself asks nothing when the base is the server's root); S3 and LOCAL by their probe.
        await withTimeout<unknown>(driver.type === 'S3' || driver.type === 'LOCAL' ? driver.checkAccess() : driver.stat(`${key}.connect`), 'connecting');
      },
    ],
    ['list', () => withTimeout(connected().checkAccess(), 'listing')],
    [
      'write',
      async () => {
        const head = await withTimeout(connected().put(key, Readable.from([bytes]), { contentType: 'text/plain' }), 'writing');
        if (head.size !== bytes.length) throw new Error(`wrote ${head.size} bytes instead of ${bytes.length}`);
      },
    ],
    [
      'read',
      async () => {
        const back = await withTimeout(connected().get(key).then(readAll), 'reading back');
        if (!back.equals(bytes)) throw new Error('the object read back differs from what was written');
      },
    ],
    [
      'delete',
      async () => {
        await withTimeout(connected().delete(key), 'deleting');
        if (await withTimeout(connected().head(key), 'checking the deletion')) throw new Error('the test object is still there after delete');
      },
    ],
  ];
  const steps: Step[] = [];
  let failure: string | MessageRef | undefined;
  for (const [step, run] of plan) {
    if (failure !== undefined) {
      steps.push({ step, ...say(false, 'step_not_tried') });
      continue;
    }
    try {
      await run();
      steps.push({ step, ...say(true, `step_${step}_ok`) });
    } catch (error) {
      // A refused host or a protocol missing from this build says its own words; anything else its reason.
      failure = error instanceof ApiError ? translate(error.messageKey, lang, error.params) : reasonOf(error);
      steps.push({ step, ...say(false, `step_${step}_failed`, { reason: failure }) });
    }
  }
  // A probe left by a failed read or delete goes now, as far as the storage lets it.
  if (driver && steps.some((done) => done.step === 'write' && done.ok)) await driver.delete(key).catch(() => undefined);
  return { steps, ...(driver && { driver }), ...(failure !== undefined && { failure }) };
}

/** LOCAL, WebDAV, SFTP, FTP: the signed URL names this server; the bytes go through the driver the URL's route uses. */
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
