import * as v from 'valibot';

/**
 * The path rules of the mount file system, one home for every side: the fs routes' schemas, WebDAV and the
 * server's path layer. A path arrives decoded once (query strings and JSON are; WebDAV decodes its URL once before
 * calling in) and is never decoded again, so `%2e%2e` stays a name and cannot become `..`.
 */

/** Longest name of one file or folder (bytes of UTF-8), as most file systems allow. */
export const FS_NAME_MAX_BYTES = 255;
/** Longest path (bytes of UTF-8). */
export const FS_PATH_MAX_BYTES = 4096;
/** Deepest folder nesting. */
const MAX_DEPTH = 64;
const CONTROL = /\p{Cc}/u;

/** An absolute, normalised path: `/` or `/a/b` (no trailing slash, no empty, `.` or `..` segments). */
export interface FsPath {
  /** `/` or `/seg/seg`. */
  text: string;
  segments: string[];
  /** The caller wrote a trailing slash: it means a folder. */
  folderHint: boolean;
}

/** Why a path is refused, as the `issue` of a 400. */
export type FsPathIssue = 'invalid_path' | 'too_long' | 'name_too_long' | 'too_deep';
/** Why a new name is refused, as the `issue` of a 400. */
export type FsNameIssue = 'invalid_name' | 'name_too_long';

/** A value that passed its rules, or the issue that refused it. */
export type Checked<T, Issue extends string> = { ok: true; value: T } | { ok: false; issue: Issue };

const utf8 = new TextEncoder();
const byteLength = (text: string) => utf8.encode(text).length;

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
export function parseFsPath(raw: string): Checked<FsPath, FsPathIssue> {
  const refused = (issue: FsPathIssue) => ({ ok: false, issue }) as const;
  if (CONTROL.test(raw)) return refused('invalid_path');
  if (byteLength(raw) > FS_PATH_MAX_BYTES) return refused('too_long');
  const text = raw.normalize('NFC').replace(/\\/g, '/');
  const segments: string[] = [];
  for (const segment of text.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) return refused('invalid_path');
      segments.pop();
      continue;
    }
    if (byteLength(segment) > FS_NAME_MAX_BYTES) return refused('name_too_long');
    segments.push(segment);
  }
  if (segments.length > MAX_DEPTH) return refused('too_deep');
  return { ok: true, value: { text: `/${segments.join('/')}`, segments, folderHint: text.endsWith('/') } };
}

/** One new name (rename target, new folder, uploaded file), in NFC: not empty, no separators, not `.` or `..`. */
export function parseFsName(name: string): Checked<string, FsNameIssue> {
  const clean = name.normalize('NFC');
  if (clean === '' || clean === '.' || clean === '..' || /[/\\]/.test(clean) || CONTROL.test(clean)) return { ok: false, issue: 'invalid_name' };
  if (byteLength(clean) > FS_NAME_MAX_BYTES) return { ok: false, issue: 'name_too_long' };
  return { ok: true, value: clean };
}

/** A request field's string made an `FsPath`; a refused path is an issue whose message is its `FsPathIssue`. */
export const toFsPath = v.rawTransform<string, FsPath>(({ dataset, addIssue, NEVER }) => {
  const path = parseFsPath(dataset.value);
  if (path.ok) return path.value;
  addIssue({ message: path.issue });
  return NEVER;
});

/** Any string as an `FsPath` (the empty string is the root). */
export const fsPathSchema = v.pipe(v.string(), toFsPath);

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
