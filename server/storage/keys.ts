import { badInput } from '../errors';
import { randomBase62 } from '../security/tokens';
import { assertSafeKey } from './driver';

const MAX_SEGMENT_CHARS = 100;
const MAX_SEGMENT_BYTES = 200;
const MAX_DEPTH = 16;

/**
 * One path segment as it may appear in a key: Unicode letters and most punctuation survive; separators,
 * control and shell-hostile characters become `_`; no leading dots or spaces (dot-segments are reserved);
 * short enough for any file system.
 */
export function safeSegment(text: string): string {
  let out = text
    .normalize('NFC')
    .replace(/[\p{Cc}\\/:*?"<>|]/gu, '_')
    .replace(/^[.\s]+/, '')
    .trim();
  out = [...out].slice(0, MAX_SEGMENT_CHARS).join('');
  while (Buffer.byteLength(out) > MAX_SEGMENT_BYTES) out = [...out].slice(0, -1).join('');
  return out;
}

/** A client-given folder (`path` of the upload form): `.`, empty and duplicate slashes dropped; `..` refused. */
export function folderSegments(path: string | undefined, field = 'path'): string[] {
  const parts = (path ?? '').split(/[/\\]+/).map((part) => part.trim());
  if (parts.includes('..')) throw badInput(field, 'invalid_path');
  const segments = parts.filter((part) => part !== '' && part !== '.').map(safeSegment).filter((part) => part !== '');
  if (segments.length > MAX_DEPTH) throw badInput(field, 'too_deep');
  return segments;
}

/**
 * The share area: file shares' objects live under this prefix at the root of their storage, where no mount reaches
 * (the mount file system refuses the prefix and leaves it out of listings), so a share's bytes are the share's alone.
 * Client folders and config folders can never start with it: `safeSegment` drops leading dots.
 */
export const SHARE_AREA = '.clipstash-shares';

/** Expense claims' receipts: reserved like the share area, so that only the claim's owner and the admin read them. */
export const EXPENSE_AREA = '.clipstash-expenses';

/** Thumbnails the server made of mount files and shares, cached (server/features/thumbnails/): reserved the same way. */
export const THUMBNAIL_AREA = '.clipstash-thumbnails';

const isUnder = (area: string, key: string): boolean => key === area || key.startsWith(`${area}/`);

export const isShareAreaKey = (key: string): boolean => isUnder(SHARE_AREA, key);

/** A key in one of the areas the app keeps for itself: the mount file system refuses them and lists none. */
export const isReservedAreaKey = (key: string): boolean =>
  isUnder(SHARE_AREA, key) || isUnder(EXPENSE_AREA, key) || isUnder(THUMBNAIL_AREA, key);

/** Where an object stored before the share area existed (`<config folder>/…`) belongs now. */
export const shareAreaKeyOf = (legacyKey: string): string => `${SHARE_AREA}/${legacyKey}`;

/**
 * The storage key of a new file share: `<share area>/<config folder>/<client folder>/<random>-<file name>`. Built
 * here and only here; the random part keeps two uploads of one name apart. With `originalName` (CloudPaste's
 * `original_filename`) the key ends in the file name alone, and the caller keeps two uploads apart.
 */
export function shareObjectKey(configFolder: string, clientFolder: string | undefined, filename: string, originalName = false): string {
  const safeName = safeSegment(filename) || 'file';
  const name = originalName ? safeName : `${randomBase62(10)}-${safeName}`;
  const key = [SHARE_AREA, ...folderSegments(configFolder, 'default_folder'), ...folderSegments(clientFolder), name].join('/');
  assertSafeKey(key);
  return key;
}

/** A file name from a client, fit for a record: no path, no control characters, at most 255 characters. */
export function cleanFilename(name: string | undefined): string {
  const base = (name ?? '').split(/[/\\]/).pop() ?? '';
  const clean = base.replace(/\p{Cc}/gu, '').trim();
  return [...clean].slice(0, 255).join('') || 'file';
}
