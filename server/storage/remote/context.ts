import type { SecretBox } from '../../security/secret-box';
import { assertSafeFolder, assertSafeKey, UnsafeKeyError } from '../driver';
import { localContextOf, type LocalContext } from '../local/root';
import type { RemoteFileSystem } from './remote-fs';

export type RemoteKind = 'WEBDAV' | 'SFTP' | 'FTP';

export interface RemoteDriverOptions {
  type: RemoteKind;
  fs: RemoteFileSystem;
  configId: string;
  /** The config's base folder on the remote server ('' = the server's root); every key lives below it. */
  folder: string;
  /** Where multipart parts wait on this server's disk: `DATA_DIR/remote-staging/<config id>`. */
  stagingRoot: string;
  secrets: SecretBox;
  now: () => Date;
}

/** What every remote operation works on: the file system, the absolute base path, and the staging of parts. */
export interface RemoteContext {
  readonly type: RemoteKind;
  readonly fs: RemoteFileSystem;
  readonly configId: string;
  /** `/a/b` for the base folder `a/b`; '' for the server's root. */
  readonly base: string;
  /** LOCAL's context over the staging folder: its multipart and signed URLs serve the remote driver unchanged. */
  readonly staging: LocalContext;
}

/** Names of writes in progress: `put` writes here beside the target, then renames; listings never show them. */
export const PARTIAL_PREFIX = '.clipstash-partial-';

export function remoteContextOf(options: RemoteDriverOptions): RemoteContext {
  assertSafeFolder(options.folder);
  const { configId, secrets, now } = options;
  return {
    type: options.type,
    fs: options.fs,
    configId,
    base: options.folder === '' ? '' : `/${options.folder}`,
    staging: localContextOf({ root: options.stagingRoot, configId, secrets, now }),
  };
}

/** The absolute remote path of a key; keys naming a write in progress are refused like any unsafe key. */
export function remotePathOf(context: RemoteContext, key: string): string {
  assertSafeKey(key);
  if (key.split('/').some((segment) => segment.startsWith(PARTIAL_PREFIX))) throw new UnsafeKeyError(key);
  return `${context.base}/${key}`;
}

/** The absolute remote path of a folder key ('' is the base folder itself). */
export function remoteFolderOf(context: RemoteContext, folder: string): string {
  if (folder === '') return context.base || '/';
  return remotePathOf(context, folder);
}

/** `/a/b/c` → `/a/b`; `/a` → `/`. */
export const parentPathOf = (path: string) => path.slice(0, path.lastIndexOf('/')) || '/';

/** `/` + `a` → `/a`; `/x` + `a` → `/x/a`. */
export const childPathOf = (parent: string, name: string) => (parent === '/' ? `/${name}` : `${parent}/${name}`);
