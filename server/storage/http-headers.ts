import type { ByteRange } from './driver';

/** RFC 6266: an ASCII fallback and the exact UTF-8 name in `filename*`. */
export function contentDisposition(kind: 'inline' | 'attachment', filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_') || 'file';
  const exact = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${exact}`;
}

export type RangeRequest = { kind: 'whole' } | { kind: 'partial'; range: ByteRange } | { kind: 'unsatisfiable' };

/**
 * One byte range of a `size`-byte object from a Range header (RFC 9110 §14). Anything we do not serve as a
 * range (no header, another unit, several ranges, bad syntax) is the whole object, as the RFC allows.
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  const match = /^bytes=(\d*)-(\d*)$/.exec((header ?? '').trim());
  if (!match || (match[1] === '' && match[2] === '')) return { kind: 'whole' };
  const [first, last] = [match[1] ?? '', match[2] ?? ''];
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(first);
  if (start >= size) return { kind: 'unsatisfiable' };
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (end < start) return { kind: 'whole' };
  return { kind: 'partial', range: { start, end } };
}

/**
 * Whether a stored file is served with `Content-Security-Policy: sandbox`: a browser opening it gets an opaque
 * origin and no scripts, so HTML, SVG, XML carrying XHTML, or a file whose type lies can never act as our origin.
 * Everything is sandboxed except PDF, which Chromium refuses to show sandboxed (its viewer runs out of the page).
 */
export function needsSandbox(contentType: string): boolean {
  const essence = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return essence !== 'application/pdf';
}

/** A MIME type we are willing to send back: `type/subtype` of token characters, else generic binary. */
export function cleanContentType(value: string | undefined): string {
  const essence = (value ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/.test(essence) ? essence : 'application/octet-stream';
}
