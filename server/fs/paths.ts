import { FS_NAME_MAX_BYTES } from '../../contract/fs';
import { ApiError, badInput } from '../errors';

/**
 * The one path layer of the mount file system: the fs routes, the explorer's calls and WebDAV all come through
 * here. A path arrives decoded once (query strings and JSON are; WebDAV decodes its URL once before calling in)
 * and is never decoded again, so `%2e%2e` stays a name and cannot become `..`.
 */

/** An absolute, normalised path: `/` or `/a/b` (no trailing slash, no empty, `.` or `..` segments). */
export interface FsPath {
  /** `/` or `/seg/seg`. */
  text: string;
  segments: string[];
  /** The caller wrote a trailing slash: it means a folder. */
  folderHint: boolean;
}

const MAX_PATH_BYTES = 4096;
const MAX_DEPTH = 64;
const CONTROL = /\p{Cc}/u;

export const ROOT: FsPath = { text: '/', segments: [], folderHint: true };

export const pathOfSegments = (segments: string[], folderHint = false): FsPath => ({
  text: `/${segments.join('/')}`,
  segments,
  folderHint,
});

/**
 * Normalises a client's path: `\\` is a separator, duplicate slashes and `.` go, `..` takes the previous segment
 * and may not climb above the root; NUL and other control characters, over-long names and paths are refused.
 * Names are NFC so that one name typed on two systems is one file.
 */
export function normalizePath(raw: string, field = 'path'): FsPath {
  if (CONTROL.test(raw)) throw badInput(field, 'invalid_path');
  if (Buffer.byteLength(raw) > MAX_PATH_BYTES) throw badInput(field, 'too_long');
  const text = raw.normalize('NFC').replace(/\\/g, '/');
  const segments: string[] = [];
  for (const segment of text.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) throw badInput(field, 'invalid_path');
      segments.pop();
      continue;
    }
    if (Buffer.byteLength(segment) > FS_NAME_MAX_BYTES) throw badInput(field, 'name_too_long');
    segments.push(segment);
  }
  if (segments.length > MAX_DEPTH) throw badInput(field, 'too_deep');
  return { text: `/${segments.join('/')}`, segments, folderHint: text.endsWith('/') };
}

/** One new name (rename target, new folder, uploaded file): not empty, no separators, not `.` or `..`. */
export function checkName(name: string, field = 'name'): string {
  const clean = name.normalize('NFC');
  if (clean === '' || clean === '.' || clean === '..' || /[/\\]/.test(clean) || CONTROL.test(clean)) throw badInput(field, 'invalid_name');
  if (Buffer.byteLength(clean) > FS_NAME_MAX_BYTES) throw badInput(field, 'name_too_long');
  return clean;
}

/** `/a` holds `/a`, `/a/b`, … but not `/ab`. */
export function isWithin(path: FsPath | string, base: FsPath | string): boolean {
  const p = typeof path === 'string' ? path : path.text;
  const b = typeof base === 'string' ? base : base.text;
  return b === '/' || p === b || p.startsWith(`${b}/`);
}

export const parentOf = (path: FsPath): FsPath => pathOfSegments(path.segments.slice(0, -1), true);
export const childOf = (path: FsPath, name: string): FsPath => pathOfSegments([...path.segments, name]);
export const nameOf = (path: FsPath): string => path.segments.at(-1) ?? '';

/** How the API writes a path: folders end in `/`. */
export const displayPath = (path: FsPath | string, isDirectory: boolean): string => {
  const text = typeof path === 'string' ? path : path.text;
  return isDirectory && text !== '/' ? `${text}/` : text;
};

/** 403 "You can only access {path} and its subdirectories". */
export const outsideBasePath = (basePath: string) => new ApiError(403, 'fs_outside_base_path', { path: basePath }, { basePath });
