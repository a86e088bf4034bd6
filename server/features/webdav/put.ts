import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pipeline as pipe, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { StorageType } from '../../../contract/storage';
import type { WebdavUploadMode } from '../../../contract/system';
import { MIN_PART_BYTES, partSizeFor } from '../../../contract/parts';
import { mimeTypeOf } from '../../../contract/mime';
import { BudgetGuard, OverBudget } from '../../forms/budget-guard';
import { nameOf } from '../fs/paths';
import { resolveInMount, type MountTarget } from '../fs/resolve';
import { storageError } from '../fs/storage-errors';
import { invalidate, kindAt, writeFile } from '../fs/writes';
import { assertFits, byteBudget, uploadLimits, type UploadLimits } from '../storages/upload-limits';
import { abortOnFailure, openUpload } from '../file-shares/multipart-core';
import { readSettings } from '../settings/settings';
import { cleanContentType } from '../../storage/http-headers';
import { partsOf } from '../../storage/split-parts';
import { actorOf, counted } from '../transfers/hooks';
import { transfersOf } from '../transfers/registry';
import { assertUnlocked, checkIf } from './conditions';
import type { DavRequest } from './context';
import { DavError } from './errors';
import { assertParentFolder } from './resources';

/** How one PUT's bytes reach the storage: the `webdav_upload_mode` setting, `auto` resolved for this body. */
export type PutRoute = 'direct' | 'proxy' | 'multipart';

/**
 * LOCAL, WebDAV, SFTP and FTP storages always take the stream straight in (their signed URLs and parts would
 * only loop back here).
 * For S3, `auto` sends bodies of known length up to one part as one stream and larger or unknown ones in parts;
 * a presigned PUT needs the length up front, so a chunked body (Finder) goes in parts instead.
 */
export function putRouteOf(mode: WebdavUploadMode, storage: StorageType, length: number | undefined): PutRoute {
  if (storage !== 'S3' || mode === 'direct') return 'direct';
  if (mode === 'proxy') return length === undefined ? 'multipart' : 'proxy';
  if (mode === 'multipart') return 'multipart';
  return length !== undefined && length <= MIN_PART_BYTES ? 'direct' : 'multipart';
}

/** In 5 MiB parts (larger for huge bodies): one part in memory at a time; a failure aborts the upload. */
async function putInParts(target: MountTarget, body: Readable, contentType: string, length: number | undefined, budget: number) {
  const { driver, key } = target;
  const upload = await openUpload(driver, key, contentType, (error) => storageError(target.path.text, error));
  return abortOnFailure(upload, async () => {
    const parts = [];
    let partNumber = 0;
    // pipeline, not pipe: a body that fails (the client went away) must fail the parts loop, not leave it waiting.
    const guarded = pipe(body, new BudgetGuard(budget), () => undefined);
    for await (const part of partsOf(guarded, partSizeFor(length ?? budget))) {
      partNumber += 1;
      parts.push(await driver.uploadPart(key, upload.uploadId, partNumber, Readable.from([part]), { size: part.length }));
    }
    return { size: parts.reduce((sum, part) => sum + part.size, 0), etag: await driver.completeMultipart(key, upload.uploadId, parts) };
  });
}

/** The server signs a PUT URL and streams the body to it, as a browser would. */
async function putPresigned(target: MountTarget, body: Readable, contentType: string, length: number, baseUrl: string) {
  const url = new URL(await target.driver.presignPut(target.key, { contentType, size: length, expiresInSeconds: 3600, baseUrl }));
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const outgoing = send(url, { method: 'PUT', headers: { 'Content-Type': contentType, 'Content-Length': String(length) } });
  const answered = new Promise<number>((resolve, reject) => {
    outgoing.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    outgoing.on('error', reject);
  });
  await pipeline(body, outgoing);
  const status = await answered;
  if (status < 200 || status >= 300) throw new Error(`The storage refused the presigned PUT (HTTP ${status})`);
  const head = await target.driver.head(target.key);
  if (!head || head.size !== length) throw new Error('The storage holds another size than was sent');
  return head;
}

async function store(request: DavRequest, target: MountTarget, body: Readable, contentType: string, length: number | undefined, limits: UploadLimits) {
  const { webdav_upload_mode } = await readSettings(request.deps.db);
  const route = putRouteOf(webdav_upload_mode, target.driver.type, length);
  if (route === 'direct') {
    await writeFile(request.deps, target, body, contentType);
    return;
  }
  const budget = byteBudget(limits);
  try {
    if (route === 'proxy' && length !== undefined) await putPresigned(target, body, contentType, length, request.baseUrl);
    else await putInParts(target, body, contentType, length, budget);
  } catch (error) {
    body.resume();
    if (error instanceof OverBudget) throw new DavError(413);
    throw storageError(target.path.text, error);
  }
  await invalidate(request.deps, target);
}

/** PUT: the body streamed into a file (201 new, 204 replaced); its folder must exist; never whole in memory. */
export async function put(request: DavRequest): Promise<Response> {
  const { deps, caller, path, raw } = request;
  await checkIf(request);
  const target = await resolveInMount(deps, caller, path);
  const existing = await kindAt(target);
  if (existing === 'folder') throw new DavError(405);
  await assertParentFolder(target);
  await assertUnlocked(request, path, { membership: existing === 'none' });
  const declared = raw.headers.get('content-length');
  const length = declared === null ? undefined : Number(declared);
  const limits = await uploadLimits(deps, target.config);
  if (length !== undefined) assertFits(length, limits);
  const transfer = transfersOf(deps).start({ kind: 'webdav-put', who: actorOf(caller.principal), name: path.text, bytesTotal: length ?? null });
  const body = counted(request.bodyStream() ?? Readable.from([]), transfer);
  const given = raw.headers.get('content-type');
  const contentType = cleanContentType(given && given !== 'application/octet-stream' ? given : mimeTypeOf(nameOf(path)));
  await store(request, target, body, contentType, length, limits).then(
    () => transfer.end('completed'),
    (error: unknown) => {
      transfer.end('failed');
      throw error;
    },
  );
  const head = await target.driver.head(target.key).catch(() => undefined);
  return new Response(null, { status: existing === 'none' ? 201 : 204, headers: head ? { ETag: `"${head.etag}"` } : {} });
}
