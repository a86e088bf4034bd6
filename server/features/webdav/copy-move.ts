import { copyOnServer } from '../fs/copy';
import { isWithin } from '../fs/paths';
import { resolveInMount } from '../fs/resolve';
import { onStorage } from '../fs/storage-errors';
import { moveOnServer } from '../fs/move';
import { kindAt, removePath } from '../fs/writes';
import { assertUnlocked, checkIf } from './conditions';
import type { DavRequest } from './context';
import { carryDeadProps } from './dead-props';
import { DavError } from './errors';
import { assertParentFolder } from './resources';
import { dropLocks } from './lock-store';
import { depthOf, destinationOf, overwriteOf } from './request';

/**
 * COPY and MOVE (RFC 4918 §9.8, §9.9) to a Destination on this server, in one mount or across mounts and
 * storages (a MOVE is the fs API's server-side move): 201 when the destination is new, 204 when it replaced something (only with `Overwrite: T`; `F`
 * answers 412), 409 when the destination's folder is missing. Dead properties go along; locks do not.
 */
export async function copyOrMove(request: DavRequest, mode: 'copy' | 'move'): Promise<Response> {
  const { deps, caller, path: from, raw } = request;
  const to = destinationOf(raw.headers.get('destination') ?? undefined, raw.url, request.baseUrl);
  const depth = depthOf(raw.headers.get('depth') ?? undefined);
  if (depth === '1' || (mode === 'move' && depth !== 'infinity')) throw new DavError(400);
  const overwrite = overwriteOf(raw.headers.get('overwrite') ?? undefined);
  await checkIf(request);
  if (from.text === to.text || isWithin(to, from) || isWithin(from, to)) throw new DavError(403);
  const source = await resolveInMount(deps, caller, from);
  if (source.inner.length === 0) throw new DavError(403);
  if ((await kindAt(source)) === 'none') throw new DavError(404);
  const target = await resolveInMount(deps, caller, to);
  if (target.inner.length === 0) throw new DavError(403);
  await assertParentFolder(target);
  const replaced = (await kindAt(target)) !== 'none';
  if (replaced && !overwrite) throw new DavError(412);
  if (mode === 'move') await assertUnlocked(request, from, { membership: true, tree: true });
  await assertUnlocked(request, to, { membership: !replaced, tree: replaced });

  if (replaced) {
    await removePath(deps, caller, to);
    await dropLocks(deps, to);
  }
  // A move between storages deletes each source file only once its copy is verified (server/features/fs/move.ts).
  if (mode === 'move') await moveOnServer(deps, source, target);
  else await onStorage(from.text, () => copyOnServer(deps, source, target, depth === '0' ? '0' : 'infinity'));
  await carryDeadProps(deps, from.text, to.text, mode);
  if (mode === 'move') await dropLocks(deps, from);
  return new Response(null, { status: replaced ? 204 : 201 });
}
