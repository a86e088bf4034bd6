import { parentOf, type FsPath } from '../fs/paths';
import type { DavRequest } from './context';
import { DavError } from './errors';
import { ifHolds, parseIf, submittedTokens, type IfList } from './if-header';
import { locksCovering, locksInTree, type DavLock } from './lock-store';
import { pathOfUrlPath } from './request';
import { resourceAt } from './resources';

export function parsedIf(raw: Request): { ifLists: IfList[]; tokens: Set<string> } {
  const value = raw.headers.get('if');
  const ifLists = value ? parseIf(value) : [];
  return { ifLists, tokens: submittedTokens(ifLists) };
}

/** The tagged resource of an `If` list as a path of ours, or undefined when it names another server. */
function taggedPath(request: DavRequest, tag: string): FsPath | undefined {
  try {
    const url = new URL(tag, request.raw.url);
    return url.host === new URL(request.raw.url).host ? pathOfUrlPath(url.pathname) : undefined;
  } catch {
    return undefined;
  }
}

/** 412 when the request carries an `If` header that does not hold (RFC 4918 §10.4). */
export async function checkIf(request: DavRequest): Promise<void> {
  if (request.ifLists.length === 0) return;
  const holds = await ifHolds(request.ifLists, async (tag) => {
    const path = tag === undefined ? request.path : taggedPath(request, tag);
    if (!path) return undefined;
    const [resource, locks] = await Promise.all([resourceAt(request.deps, request.caller, path).catch(() => undefined), locksCovering(request.deps, path)]);
    return { etag: resource?.etag ?? null, lockTokens: new Set(locks.map((lock) => lock.token)) };
  });
  if (!holds) throw new DavError(412);
}

/**
 * What a write to `path` must hold the tokens of: the locks on it and on the folders above it (depth infinity);
 * with `membership`, also a depth-0 lock of its folder (the write adds or removes one of its members); with
 * `tree`, the locks anywhere below it (a folder deleted or moved whole).
 */
export async function assertUnlocked(request: DavRequest, path: FsPath, scope: { membership?: boolean; tree?: boolean } = {}): Promise<void> {
  const { deps } = request;
  const locks: DavLock[] = await locksCovering(deps, path);
  if (scope.membership && path.segments.length > 0) locks.push(...(await locksCovering(deps, parentOf(path))).filter((lock) => lock.depth === '0'));
  if (scope.tree) locks.push(...(await locksInTree(deps, path)));
  const blocking = locks.find((lock) => !request.tokens.has(lock.token));
  // A shared lock is satisfied by the token of any of the shared locks on the resource (RFC 4918 §6.2).
  if (blocking && !(blocking.scope === 'shared' && locks.some((lock) => lock.scope === 'shared' && lock.path === blocking.path && request.tokens.has(lock.token)))) {
    throw new DavError(423, 'lock-token-submitted');
  }
}
