import { createHash } from 'node:crypto';
import { lstat, realpath } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { SecretBox } from '../../security/secret-box';
import { assertSafeFolder, assertSafeKey, UnsafeKeyError } from '../driver';

export interface LocalDriverOptions {
  /** The folder of this config: `DATA_DIR/storage/<config id>`. */
  root: string;
  configId: string;
  secrets: SecretBox;
  now: () => Date;
}

/** What every LOCAL operation works on: the driver's options, `root` made absolute. */
export type LocalContext = Readonly<LocalDriverOptions>;

export const localContextOf = (options: LocalDriverOptions): LocalContext => ({ ...options, root: resolve(options.root) });

/** Staging for writes in progress and per-object metadata: dot-folders, which no key can name. */
export const STAGING = '.staging';
export const META = '.meta';

export const isMissing = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';

/** The absolute path of a key below `base`: refused unless it is strictly inside it. */
function pathUnder(base: string, key: string): string {
  assertSafeKey(key);
  const full = resolve(base, ...key.split('/'));
  if (!full.startsWith(base + sep)) throw new UnsafeKeyError(key);
  return full;
}

/** The absolute path of a key: refused unless it is strictly inside root. */
export const pathOf = (context: LocalContext, key: string) => pathUnder(context.root, key);

/** Where the metadata of a key's object (or, without `.json`, of a folder's objects) is kept. */
export const metaFolderOf = (context: LocalContext, key: string) => pathUnder(join(context.root, META), key);

/** Longest name of one entry the disk holds (bytes): ext4, XFS, Btrfs and tmpfs all stop at 255. */
const LOCAL_NAME_MAX_BYTES = 255;
const SIDECAR_SUFFIX = '.json';

/**
 * The metadata file of a key's object: `<name>.json` beside the folder's metadata, or, when that would be longer
 * than the disk allows, `.meta/<sha-256 of the name>.json` one folder below. No key segment may be `.meta`, so that
 * folder never meets the metadata of a real folder, and any name the disk holds keeps its metadata.
 */
export function metaPathOf(context: LocalContext, key: string): string {
  const folder = metaFolderOf(context, key);
  const name = folder.slice(folder.lastIndexOf(sep) + 1);
  if (Buffer.byteLength(name) + SIDECAR_SUFFIX.length <= LOCAL_NAME_MAX_BYTES) return `${folder}${SIDECAR_SUFFIX}`;
  const digest = createHash('sha256').update(name).digest('hex');
  return join(dirname(folder), META, `${digest}${SIDECAR_SUFFIX}`);
}

/**
 * The absolute path of a key, refused when a symbolic link is anywhere on the way (or is the object itself): a
 * link planted in the folder must not expose the rest of the disk, nor a folder outside a key's base path.
 */
export async function confinedPathOf(context: LocalContext, key: string): Promise<string> {
  const full = pathOf(context, key);
  await assertConfined(context.root, full, key);
  return full;
}

export async function folderPathOf(context: LocalContext, folder: string): Promise<string> {
  assertSafeFolder(folder);
  if (folder === '') return context.root;
  return confinedPathOf(context, folder);
}

/** Each root's own real path (a link above root is the admin's choice, not a key's), found once. */
const realRoots = new Map<string, Promise<string | undefined>>();

/**
 * True when the whole way from root to `full` exists and holds no link: then the real path is root's real path and
 * the same names. One thread-pool call instead of an lstat per folder, which under load costs a small file's copy
 * more than its bytes. Anything else (a part missing, a link, an error) is for the walk to decide.
 */
async function plainAllTheWay(root: string, full: string): Promise<boolean> {
  let realRoot = realRoots.get(root);
  if (!realRoot) {
    realRoot = realpath(root).catch(() => undefined);
    realRoots.set(root, realRoot);
  }
  const [rootReal, fullReal] = await Promise.all([realRoot, realpath(full).catch(() => undefined)]);
  if (rootReal === undefined) realRoots.delete(root);
  return rootReal !== undefined && fullReal === rootReal + full.slice(root.length);
}

/** No link is followed on the way from root to a path: not out of root, nor to a sibling a caller may not see. */
async function assertConfined(root: string, full: string, key: string) {
  if (await plainAllTheWay(root, full)) return;
  let probe = root;
  for (const segment of full.slice(root.length + 1).split(sep)) {
    probe = join(probe, segment);
    try {
      if ((await lstat(probe)).isSymbolicLink()) throw new UnsafeKeyError(key);
    } catch (error) {
      if (isMissing(error)) return; // not there yet: nothing further can be a link
      throw error;
    }
  }
}
