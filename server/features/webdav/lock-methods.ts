import { Readable } from 'node:stream';
import { resolveInMount } from '../fs/resolve';
import { writeFile } from '../fs/writes';
import { xmlBodyOf } from './body';
import { assertUnlocked, checkIf } from './conditions';
import type { DavRequest } from './context';
import { DavError } from './errors';
import { createLock, locksCovering, locksInTree, refreshLock, removeLock, timeoutOf, type DavLock } from './lock-store';
import { writeActiveLock } from './props';
import { depthOf } from './request';
import { assertParentFolder, resourceAt } from './resources';
import { childElements, DavDocument, isDav, serialize } from './xml';

function lockAnswer(request: DavRequest, lock: DavLock, status: 200 | 201): Response {
  const out = new DavDocument('prop');
  writeActiveLock(out, out.dav(out.root, 'lockdiscovery'), lock, request.deps);
  return new Response(out.toString(), {
    status,
    headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Lock-Token': `<${lock.token}>` },
  });
}

/** A LOCK without a body refreshes the lock whose token the `If` header submits (on the resource or above it). */
async function refresh(request: DavRequest): Promise<Response> {
  const lock = (await locksCovering(request.deps, request.path)).find((candidate) => request.tokens.has(candidate.token));
  if (!lock) throw new DavError(412, 'lock-token-matches-request-uri');
  return lockAnswer(request, await refreshLock(request.deps, lock, timeoutOf(request.raw.headers.get('timeout') ?? undefined)), 200);
}

/**
 * LOCK (RFC 4918 §9.10): an exclusive or shared write lock, depth 0 or infinity, kept in the database. A lock on
 * an unmapped URL makes an empty file there (201). Conflicting locks answer 423.
 */
export async function lock(request: DavRequest): Promise<Response> {
  const { deps, caller, path, raw } = request;
  const body = await xmlBodyOf(raw);
  await checkIf(request);
  if (!body) return refresh(request);
  const info = body.documentElement;
  if (!info || !isDav(info, 'lockinfo')) throw new DavError(400);
  const part = (name: string) => childElements(info).find((child) => isDav(child, name));
  const scopeElement = part('lockscope');
  const scope = scopeElement && childElements(scopeElement).some((child) => isDav(child, 'shared')) ? 'shared' : 'exclusive';
  if (!scopeElement || !part('locktype')) throw new DavError(400);
  const owner = part('owner');
  const depth = depthOf(raw.headers.get('depth') ?? undefined);
  if (depth === '1') throw new DavError(400);

  const held = [...(await locksCovering(deps, path)), ...(depth === 'infinity' ? await locksInTree(deps, path) : [])];
  if (held.some((existing) => existing.scope === 'exclusive' || scope === 'exclusive')) throw new DavError(423, 'no-conflicting-lock');

  let status: 200 | 201 = 200;
  if (!(await resourceAt(deps, caller, path))) {
    const target = await resolveInMount(deps, caller, path);
    await assertParentFolder(target);
    await assertUnlocked(request, path, { membership: true });
    await writeFile(deps, target, Readable.from([]), undefined);
    status = 201;
  }
  const created = await createLock(deps, {
    path: path.text,
    depth: depth === '0' ? '0' : 'infinity',
    scope,
    owner: owner ? serialize(owner) : null,
    timeout_seconds: timeoutOf(raw.headers.get('timeout') ?? undefined),
    created_by: request.creator,
  });
  return lockAnswer(request, created, status);
}

/** UNLOCK: the `Lock-Token` must name a lock on the resource or above it (409 otherwise). */
export async function unlock(request: DavRequest): Promise<Response> {
  const token = /^\s*<([^>]+)>\s*$/.exec(request.raw.headers.get('lock-token') ?? '')?.[1];
  if (!token) throw new DavError(400);
  const held = (await locksCovering(request.deps, request.path)).find((candidate) => candidate.token === token);
  if (!held) throw new DavError(409, 'lock-token-matches-request-uri');
  await removeLock(request.deps, token);
  return new Response(null, { status: 204 });
}
