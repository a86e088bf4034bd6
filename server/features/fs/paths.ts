import { parseFsName, parseFsPath, type FsPath } from '../../../contract/fs-paths';
import { ApiError, badInput } from '../../errors';

/**
 * The server's side of the path rules in contract/fs-paths.ts: a refused path or name is the 400 that names the
 * field it came in. The fs routes get their paths already normalised by the contract's schemas; WebDAV,
 * upload-batch's form and the per-item paths of batch copies come through here.
 */
export { childOf, displayPath, isWithin, nameOf, parentOf, pathOfSegments, ROOT, type FsPath } from '../../../contract/fs-paths';

/** A client's path, normalised by the contract's rules; a refused one is a 400 for `field`. */
export function normalizePath(raw: string, field = 'path'): FsPath {
  const path = parseFsPath(raw);
  if (!path.ok) throw badInput(field, path.issue);
  return path.value;
}

/** One new name (rename target, new folder, uploaded file) in NFC; a refused one is a 400 for `field`. */
export function checkName(name: string, field = 'name'): string {
  const clean = parseFsName(name);
  if (!clean.ok) throw badInput(field, clean.issue);
  return clean.value;
}

/** 403 "You can only access {path} and its subdirectories". */
export const outsideBasePath = (basePath: string) => new ApiError(403, 'fs_outside_base_path', { path: basePath }, { basePath });
