import type { Readable } from 'node:stream';
import type { FsConflictPolicy, FsUploadResult, FsWriteOutcome } from '../../../contract/fs';
import { mimeTypeOf } from '../../../contract/mime';
import { FS_NAME_MAX_BYTES } from '../../../contract/fs-paths';
import type { AppDeps } from '../../context';
import { ApiError } from '../../errors';
import { releaseName as releaseHeld, renewName as renewHeld, reserveName, reserveNames } from './name-reservations';
import { checkName, nameOf } from './paths';
import { withInner, type MountTarget } from './resolve';
import { onStorage } from './storage-errors';
import { kindAt, writeFile, type WriteOptions } from './writes';

/**
 * The one conflict rule of every write into a mount (contract/fs.ts FsConflictPolicy) and the names writes in
 * progress hold. A name is free only when neither the storage nor a live reservation (services/name-reservations.ts)
 * has it; a writer takes a free name by inserting its reservation, atomically across processes and instances: two
 * writers never get the same name.
 */

/** A direct write (a streamed upload) holds its name this long at most: a crashed one frees it within the hour. */
export const DIRECT_WRITE_HOLD_MS = 3600_000;
/** Multipart uploads, presigned PUTs and planned client copies: renewed by their activity (see renewName). */
export const UPLOAD_HOLD_MS = 24 * 3600_000;
/** Candidates tried past the name itself before a rename gives up. */
const MAX_NUMBERED = 10_000;

/**
 * `name.ext`, `name (1).ext`, `name (2).ext`…: the n-th candidate for a name that is taken. A name near the
 * storage's limit loses the end of its stem (whole characters) so that its number still fits: keeping both must not
 * fail on the name the server chose.
 */
export function numberedName(name: string, n: number): string {
  if (n === 0) return name;
  const dot = name.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  const suffix = ` (${n})${extension}`;
  const characters = [...stem];
  while (characters.length > 1 && Buffer.byteLength(characters.join('') + suffix) > FS_NAME_MAX_BYTES) characters.pop();
  return `${characters.join('')}${suffix}`;
}

/** Where a write goes and what it will be; `reserved`: it holds the name, to give back with releaseName when done. */
export type Placement = { outcome: FsWriteOutcome; target: MountTarget; reserved: boolean };

/** The reservation row's name of a target. */
const heldName = (target: MountTarget) => ({ configId: target.config.id, key: target.key });
const reserve = (deps: AppDeps, target: MountTarget, outcome: 'created' | 'renamed', holdMs: number) =>
  reserveName(deps, heldName(target), outcome, holdMs);

/** Gives a target's name back; answers what its write was planned as, or undefined when none held it. */
export const releaseName = (deps: AppDeps, target: MountTarget) => releaseHeld(deps, heldName(target));

/** A write still in progress keeps its target's name for another `holdMs`. */
export const renewName = (deps: AppDeps, target: MountTarget, holdMs = UPLOAD_HOLD_MS) => renewHeld(deps, heldName(target), holdMs);

const conflictAt = (target: MountTarget, issue: 'exists' | 'is_a_folder') =>
  new ApiError(409, 'fs_exists', { path: target.path.text }, { field: 'path', issue });

/** The target with its last name numbered `n`; a numbered name too long for the storage ends the search. */
function numbered(target: MountTarget, n: number): MountTarget {
  const name = checkName(numberedName(nameOf(target.path), n), 'filename');
  return withInner(target, [...target.inner.slice(0, -1), name]);
}

/** The first of `name (1).ext`, `name (2).ext`… that neither storage nor a reservation has, taken for the caller. */
export async function reserveFreeName(deps: AppDeps, target: MountTarget, holdMs: number, from = 1): Promise<MountTarget> {
  for (let n = from; n <= MAX_NUMBERED; n++) {
    const candidate = numbered(target, n);
    if ((await kindAt(candidate)) !== 'none') continue;
    if (await reserve(deps, candidate, n === 0 ? 'created' : 'renamed', holdMs)) {
      // The storage is asked again once the name is held: a write that finished between the look and the take
      // released its reservation and left its file.
      if ((await kindAt(candidate)) === 'none') return candidate;
      await releaseName(deps, candidate);
    }
  }
  throw conflictAt(target, 'exists');
}

/**
 * Decides a write to `target` under `policy`, `kind` being what is there: `skip` answers the existing entry (file
 * or folder) as skipped, `replace` writes over a file (never a folder), `fail` answers 409 (for a name another
 * writer holds too), `rename` takes the next free numbered name. With `holdFree`, a free name is reserved for the
 * writer; without, a free name is simply written (the write is over before another could take it).
 */
export async function placeKnown(
  deps: AppDeps,
  target: MountTarget,
  policy: FsConflictPolicy,
  kind: 'file' | 'folder' | 'none',
  holdMs: number,
  holdFree = true,
): Promise<Placement> {
  if (kind === 'none' && !holdFree) return { outcome: 'created', target, reserved: false };
  if (kind === 'none' && (await reserve(deps, target, 'created', holdMs))) {
    if ((await kindAt(target)) === 'none') return { outcome: 'created', target, reserved: true };
    await releaseName(deps, target);
  }
  if (policy === 'rename') {
    if (target.inner.length === 0) throw conflictAt(target, 'is_a_folder');
    return { outcome: 'renamed', target: await reserveFreeName(deps, target, holdMs), reserved: true };
  }
  if (policy === 'fail') throw conflictAt(target, kind === 'folder' ? 'is_a_folder' : 'exists');
  // What is in the way now: a reserved name may have become a file or a folder since the first look. A name only
  // held (a write in progress or abandoned, nothing stored) has nothing to skip or keep: it is written, so that a
  // plan made again after a crash writes what the first never did.
  const now = kind === 'none' ? await kindAt(target) : kind;
  if (policy === 'skip' && now !== 'none') return { outcome: 'skipped', target, reserved: false };
  if (now === 'folder') throw conflictAt(target, 'is_a_folder');
  return { outcome: now === 'file' ? 'replaced' : 'created', target, reserved: false };
}

/**
 * Places many writes with one look per folder instead of two per name: each name is reserved first, then `lookUp`
 * says what the storage has at every target (a listing of their folders, taken after the takes, as placeKnown looks
 * again once a name is held). Names taken on the storage, or held by another writer, go through placeKnown. Answers
 * per target its placement or why it cannot be written.
 */
export async function placeMany(
  deps: AppDeps,
  targets: readonly MountTarget[],
  policy: FsConflictPolicy,
  holdMs: number,
  lookUp: (targets: readonly MountTarget[]) => Promise<Map<MountTarget, 'file' | 'folder' | 'none'>>,
): Promise<(Placement | Error)[]> {
  const names = targets.filter((target) => target.inner.length > 0).map((target) => ({ target, name: heldName(target) }));
  const taken = await reserveNames(deps, names.map(({ name }) => name), 'created', holdMs);
  const held = new Set(names.filter(({ name }) => taken.has(name)).map(({ target }) => target));
  const kinds = await lookUp(targets);
  const placements: (Placement | Error)[] = [];
  for (const target of targets) {
    const kind = target.inner.length === 0 ? 'folder' : (kinds.get(target) ?? 'none');
    if (held.has(target) && kind === 'none') {
      placements.push({ outcome: 'created', target, reserved: true });
      continue;
    }
    if (held.has(target)) await releaseName(deps, target);
    placements.push(await placeKnown(deps, target, policy, kind, holdMs).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error)))));
  }
  return placements;
}

/** placeKnown after a look at what is at the target (the mount's root is a folder). */
export async function placeWrite(deps: AppDeps, target: MountTarget, policy: FsConflictPolicy, holdMs: number): Promise<Placement> {
  return placeKnown(deps, target, policy, target.inner.length === 0 ? 'folder' : await kindAt(target), holdMs);
}

/** A direct write placed, done and its name given back (whatever happens to the write). */
export async function writePlaced<T>(
  deps: AppDeps,
  target: MountTarget,
  policy: FsConflictPolicy,
  write: (placement: Placement) => Promise<T>,
): Promise<T> {
  const placement = await placeWrite(deps, target, policy, DIRECT_WRITE_HOLD_MS);
  try {
    return await write(placement);
  } finally {
    if (placement.reserved) await releaseName(deps, placement.target);
  }
}

/** What a skipped write leaves: the file there (size and ETag), or a folder (nothing to describe). */
export async function describeExisting(target: MountTarget): Promise<{ size: number; etag: string }> {
  const object = target.inner.length > 0 ? await onStorage(target.path.text, () => target.driver.stat(target.key)) : undefined;
  return { size: object?.size ?? 0, etag: object?.etag ?? '' };
}

/**
 * Streams an upload into `target` under `policy` (a skipped body is drained); answers where it went and what
 * became of it.
 */
export function writeWithPolicy(
  deps: AppDeps,
  target: MountTarget,
  policy: FsConflictPolicy,
  body: Readable,
  contentType: string | undefined,
  options: WriteOptions = {},
): Promise<{ target: MountTarget; result: FsUploadResult }> {
  return writePlaced(deps, target, policy, async ({ outcome, target: placed }) => {
    if (outcome === 'skipped') {
      body.resume();
      const existing = await describeExisting(placed);
      return { target: placed, result: { path: placed.path.text, ...existing, mimetype: mimeTypeOf(nameOf(placed.path)), outcome } };
    }
    return { target: placed, result: { ...(await writeFile(deps, placed, body, contentType, options)), outcome } };
  });
}
