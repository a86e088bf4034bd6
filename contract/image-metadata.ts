/**
 * Removing where a photo was taken (or all its metadata) from a shared copy, in place: the bytes keep their length,
 * so that a file's size, its parts and a resumed upload stay as planned, and only the file's head is touched. JPEG
 * (EXIF in APP1, XMP) and WebP (EXIF and XMP chunks) are read; other formats pass unchanged.
 */

/** What is removed: the GPS position (EXIF's GPS directory, XMP that names a GPS field), or every metadata but orientation. */
export type MetadataStrip = 'location' | 'all';

/** A JPEG or WebP photo by its name or its type: the files whose metadata is read (others are never opened). */
export const isStrippablePhoto = (name: string, type: string) => /\.(jpe?g|jfif|webp)$/i.test(name) || /^image\/(jpeg|webp)$/.test(type);

/** The head of a file that holds its metadata: JPEG's APP segments and WebP's metadata chunks come before the image. */
export const METADATA_HEAD_BYTES = 1024 * 1024;

const GPS_DIRECTORY_TAG = 0x8825;
const ORIENTATION_TAG = 0x0112;
/** Bytes per value of each TIFF field type (1 BYTE … 12 DOUBLE). */
const TYPE_BYTES = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8];
const ENTRY_BYTES = 12;

const ascii = (bytes: Uint8Array, at: number, text: string) => {
  if (at + text.length > bytes.length) return false;
  for (let index = 0; index < text.length; index++) if (bytes[at + index] !== text.charCodeAt(index)) return false;
  return true;
};

/** A TIFF block (EXIF's body) of bytes[start, end), read with its own byte order; every read is bounds-checked. */
class Tiff {
  private readonly view: DataView;
  private readonly little: boolean;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly start: number,
    readonly length: number,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset + start, length);
    this.little = bytes[start] === 0x49;
  }

  valid() {
    return this.length >= 8 && (ascii(this.bytes, this.start, 'II') || ascii(this.bytes, this.start, 'MM')) && this.u16(2) === 42;
  }

  u16 = (at: number) => (at + 2 <= this.length ? this.view.getUint16(at, this.little) : undefined);
  u32 = (at: number) => (at + 4 <= this.length ? this.view.getUint32(at, this.little) : undefined);
  setU16 = (at: number, value: number) => this.view.setUint16(at, value, this.little);
  setU32 = (at: number, value: number) => this.view.setUint32(at, value, this.little);

  /** The entry at `at` (12 bytes), copied (a Node Buffer's `slice` would be a view). */
  entry = (at: number) => Uint8Array.from(this.bytes.subarray(this.start + at, this.start + at + ENTRY_BYTES));
  setEntry = (at: number, entry: Uint8Array) => this.bytes.set(entry, this.start + at);

  fill(from: number, to: number, value = 0) {
    this.bytes.fill(value, this.start + Math.max(0, from), this.start + Math.min(this.length, to));
  }

  /** The entries of the directory at `at`, or undefined when it does not fit in the block. */
  entries(at: number): number[] | undefined {
    const count = this.u16(at);
    if (count === undefined || at + 2 + count * ENTRY_BYTES + 4 > this.length) return undefined;
    return Array.from({ length: count }, (_, index) => at + 2 + index * ENTRY_BYTES);
  }

  /** Zeroes a directory: its values stored elsewhere in the block, then its entries; it is left empty, no next one. */
  clearDirectory(at: number): boolean {
    const entries = this.entries(at);
    if (!entries) return false;
    for (const entry of entries) {
      const bytes = (TYPE_BYTES[this.u16(entry + 2) ?? 0] ?? 0) * (this.u32(entry + 4) ?? 0);
      const offset = this.u32(entry + 8) ?? 0;
      if (bytes > 4) this.fill(offset, offset + bytes);
    }
    this.fill(at, at + 2 + entries.length * ENTRY_BYTES + 4);
    return true;
  }
}

/** Removes the GPS directory (or all but orientation) from a TIFF block; an unreadable block is blanked whole. */
function stripTiff(bytes: Uint8Array, start: number, end: number, strip: MetadataStrip): boolean {
  const tiff = new Tiff(bytes, start, end - start);
  const blank = () => {
    tiff.fill(0, tiff.length);
    return true;
  };
  if (!tiff.valid()) return blank();
  const first = tiff.u32(4) ?? 0;
  const entries = tiff.entries(first);
  if (!entries) return blank();
  if (strip === 'location') {
    const gps = entries.find((entry) => tiff.u16(entry) === GPS_DIRECTORY_TAG);
    if (gps === undefined) return false;
    return tiff.clearDirectory(tiff.u32(gps + 8) ?? 0) || blank();
  }
  // Everything but the header and one directory holding orientation (a SHORT, stored in its entry).
  const orientation = entries.find((entry) => tiff.u16(entry) === ORIENTATION_TAG);
  const kept = orientation === undefined ? undefined : tiff.entry(orientation);
  tiff.fill(8, tiff.length);
  if (8 + 2 + ENTRY_BYTES + 4 > tiff.length) return true;
  tiff.setU32(4, 8);
  tiff.setU16(8, kept ? 1 : 0);
  if (kept) tiff.setEntry(10, kept);
  return true;
}

const XMP_NAMESPACES = ['http://ns.adobe.com/xap/1.0/\0', 'http://ns.adobe.com/xmp/extension/\0'];

/** XMP is text: blanked with spaces (still a valid, empty packet area) when all goes or when it names a GPS field. */
function stripXmp(bytes: Uint8Array, start: number, end: number, strip: MetadataStrip): boolean {
  if (strip === 'location' && !new TextDecoder('latin1').decode(bytes.subarray(start, end)).includes('GPS')) return false;
  bytes.fill(0x20, start, end);
  return true;
}

function stripJpeg(bytes: Uint8Array, strip: MetadataStrip): boolean {
  let changed = false;
  let at = 2;
  while (at + 4 <= bytes.length && bytes[at] === 0xff) {
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    // The image data starts (or the file ends): no metadata segment comes after.
    if (marker === 0xda || marker === 0xd9) break;
    const length = ((bytes[at + 2] ?? 0) << 8) | (bytes[at + 3] ?? 0);
    const body = at + 4;
    const end = Math.min(bytes.length, at + 2 + length);
    if (length < 2) break;
    if (marker === 0xe1 && ascii(bytes, body, 'Exif\0\0')) changed = stripTiff(bytes, body + 6, end, strip) || changed;
    else if (marker === 0xe1) {
      const namespace = XMP_NAMESPACES.find((name) => ascii(bytes, body, name));
      if (namespace) changed = stripXmp(bytes, body + namespace.length, end, strip) || changed;
    }
    at += 2 + length;
  }
  return changed;
}

function stripWebp(bytes: Uint8Array, strip: MetadataStrip): boolean {
  let changed = false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  for (let at = 12; at + 8 <= bytes.length; ) {
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    const end = Math.min(bytes.length, body + size);
    if (ascii(bytes, at, 'EXIF')) {
      const tiff = ascii(bytes, body, 'Exif\0\0') ? body + 6 : body;
      changed = stripTiff(bytes, tiff, end, strip) || changed;
    } else if (ascii(bytes, at, 'XMP ')) {
      changed = stripXmp(bytes, body, end, strip) || changed;
    }
    at = body + size + (size % 2);
  }
  return changed;
}

/**
 * Strips `strip` from the metadata in `head` (a file's first METADATA_HEAD_BYTES, or all of a smaller file), in
 * place and keeping its length; answers whether anything changed. A file of another format is left as it is.
 */
export function stripImageMetadata(head: Uint8Array, strip: MetadataStrip): boolean {
  if (head[0] === 0xff && head[1] === 0xd8) return stripJpeg(head, strip);
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WEBP')) return stripWebp(head, strip);
  return false;
}
