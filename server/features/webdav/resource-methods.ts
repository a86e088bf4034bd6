import { mimeTypeOf } from '../../../contract/mime';
import { nameOf } from '../fs/paths';
import { resolveInMount } from '../fs/resolve';
import { kindAt, makeFolder, removePath } from '../fs/writes';
import { serveObject } from '../../storage/serve-object';
import { actorOf, watchedDownload } from '../transfers/hooks';
import { assertUnlocked, checkIf } from './conditions';
import type { DavRequest } from './context';
import { dropDeadProps } from './dead-props';
import { DavError } from './errors';
import { dropLocks } from './lock-store';
import { assertParentFolder, resourceAt } from './resources';

/** GET and HEAD of a file, with Range and its ETag (the one PROPFIND and `If` use). Folders have no body here. */
export async function getFile(request: DavRequest): Promise<Response> {
  const { deps, caller, path } = request;
  await checkIf(request);
  const resource = await resourceAt(deps, caller, path);
  if (!resource) throw new DavError(404);
  if (resource.isFolder) throw new DavError(405);
  const target = await resolveInMount(deps, caller, path);
  const response = await serveObject(request.raw, {
    driver: target.driver,
    key: target.key,
    size: resource.size,
    etag: resource.etag,
    contentType: resource.contentType || mimeTypeOf(nameOf(path)),
    disposition: 'attachment',
    filename: nameOf(path),
    relay: watchedDownload(deps, 'webdav-get', actorOf(caller.principal), path.text),
  });
  if (resource.modified) response.headers.set('Last-Modified', resource.modified.toUTCString());
  return response;
}

/** DELETE of a file or a whole folder; its dead properties and locks go with it. */
export async function remove(request: DavRequest): Promise<Response> {
  const { deps, caller, path } = request;
  await checkIf(request);
  const target = await resolveInMount(deps, caller, path);
  if (target.inner.length === 0) throw new DavError(403);
  if ((await kindAt(target)) === 'none') throw new DavError(404);
  await assertUnlocked(request, path, { membership: true, tree: true });
  await removePath(deps, caller, path);
  await dropDeadProps(deps, path.text);
  await dropLocks(deps, path);
  return new Response(null, { status: 204 });
}

/** MKCOL: 201; 405 when something is there, 409 without a parent folder, 415 with a body (RFC 4918 §9.3). */
export async function mkcol(request: DavRequest): Promise<Response> {
  const { deps, caller, path, raw } = request;
  if (raw.body && (await raw.arrayBuffer()).byteLength > 0) throw new DavError(415);
  await checkIf(request);
  if (await resourceAt(deps, caller, path)) throw new DavError(405);
  const target = await resolveInMount(deps, caller, path);
  await assertParentFolder(target);
  await assertUnlocked(request, path, { membership: true });
  await makeFolder(deps, caller, path);
  return new Response(null, { status: 201 });
}
