/** A file larger than a viewer is willing to download whole. */
export class TooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`larger than ${limit} bytes`);
  }
}

/** The file is an encrypted (password-protected) Office document: an OLE container, not a zip. */
export class EncryptedOfficeError extends Error {}

/** Office files saved with a password are OLE compound files; their first bytes say so. */
const OLE_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

export function isOleFile(bytes: Uint8Array): boolean {
  return OLE_SIGNATURE.every((byte, index) => bytes[index] === byte);
}

/**
 * The whole file as bytes, refused before its body is read when the server says it is over `limit` (and cut off
 * when a server that did not say sends more).
 */
export async function fetchBytes(url: string, limit: number, signal?: AbortSignal): Promise<Uint8Array<ArrayBuffer>> {
  const response = await fetch(url, { signal, credentials: 'omit' });
  if (!response.ok || !response.body) throw new Error(`the file answered ${response.status}`);
  const length = Number(response.headers.get('Content-Length') ?? NaN);
  if (length > limit) {
    await response.body.cancel();
    throw new TooLargeError(limit);
  }
  const parts: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw new TooLargeError(limit);
    }
    parts.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return bytes;
}

/** What a viewer downloads whole at most: documents and books. */
export const DOCUMENT_MAX_BYTES = 50 * 1024 * 1024;
/** 7z and tar cannot be read in parts: the whole archive is downloaded, up to this. */
export const ARCHIVE_MAX_BYTES = 100 * 1024 * 1024;
/** An entry of an archive is opened in the page up to this size (uncompressed). */
export const ENTRY_MAX_BYTES = 16 * 1024 * 1024;
/** Rows of a sheet shown; the rest is for the download. */
export const SHEET_MAX_ROWS = 1000;
export const SHEET_MAX_COLUMNS = 200;
