/**
 * Removing where a photo was taken (or all its metadata) from a shared copy, in place: the bytes keep their length,
 * so that a file's size, its parts and a resumed upload stay as planned, and only the file's head is touched. JPEG
 * (EXIF in APP1, XMP), WebP (EXIF and XMP chunks) and HEIF (HEIC, AVIF: Exif and XMP items) are read; other formats
 * pass unchanged.
 */

/** What is removed: the GPS position (EXIF's GPS directory, XMP that names a GPS field), or every metadata but orientation. */
export type MetadataStrip = 'location' | 'all';

/** A JPEG, WebP, HEIC or AVIF photo by its name or its type: the files whose metadata is read (others are never opened). */
export const isStrippablePhoto = (name: string, type: string) =>
  /\.(jpe?g|jfif|webp|hei[cf]|avif)$/i.test(name) || /^image\/(jpeg|webp|hei[cf]|avif)$/.test(type);

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

/** A box of an ISO base media file (HEIC, AVIF): its type, where its content starts and where it ends. */
interface Box {
  type: string;
  body: number;
  end: number;
}

function* boxes(bytes: Uint8Array, view: DataView, from: number, to: number): Generator<Box> {
  for (let at = from; at + 8 <= to; ) {
    let size = view.getUint32(at);
    let body = at + 8;
    if (size === 1 && at + 16 <= to) {
      size = Number(view.getBigUint64(at + 8));
      body = at + 16;
    } else if (size === 0) size = to - at;
    if (size < body - at) return;
    yield { type: String.fromCharCode(...bytes.subarray(at + 4, at + 8)), body, end: Math.min(to, at + size) };
    at += size;
  }
}

/** Reads unsigned big-endian numbers of 0, 2, 4 or 8 bytes in turn, as `iloc` and `infe` lay them out. */
class Reader {
  constructor(
    private readonly view: DataView,
    public at: number,
  ) {}
  uint(bytes: number): number {
    const at = this.at;
    this.at += bytes;
    if (bytes === 0) return 0;
    if (bytes === 2) return this.view.getUint16(at);
    if (bytes === 4) return this.view.getUint32(at);
    return Number(this.view.getBigUint64(at));
  }
  text(): string {
    let text = '';
    for (let code = this.uint1(); code !== 0; code = this.uint1()) text += String.fromCharCode(code);
    return text;
  }
  private uint1() {
    return this.view.getUint8(this.at++);
  }
}

/** HEIF's metadata items (`Exif`, XMP as `mime` of `application/rdf+xml`) by item id, from `iinf`. */
function metadataItems(bytes: Uint8Array, view: DataView, iinf: Box): Map<number, 'exif' | 'xmp'> {
  const items = new Map<number, 'exif' | 'xmp'>();
  const version = view.getUint8(iinf.body);
  const first = iinf.body + 4 + (version === 0 ? 2 : 4);
  for (const infe of boxes(bytes, view, first, iinf.end)) {
    const infeVersion = view.getUint8(infe.body);
    if (infe.type !== 'infe' || infeVersion < 2) continue;
    const read = new Reader(view, infe.body + 4);
    const id = read.uint(infeVersion === 2 ? 2 : 4);
    read.uint(2);
    const type = String.fromCharCode(...bytes.subarray(read.at, read.at + 4));
    read.at += 4;
    if (type === 'Exif') items.set(id, 'exif');
    else if (type === 'mime') {
      read.text();
      if (read.text().includes('rdf+xml')) items.set(id, 'xmp');
    }
  }
  return items;
}

/** Where each item's bytes are in the file (`iloc`, construction method 0: file offsets, one extent). */
function itemPlaces(view: DataView, iloc: Box): Map<number, { start: number; length: number }> {
  const places = new Map<number, { start: number; length: number }>();
  const version = view.getUint8(iloc.body);
  const read = new Reader(view, iloc.body + 4);
  const sizes = read.uint(2);
  const [offsetSize, lengthSize, baseSize, indexSize] = [(sizes >> 12) & 15, (sizes >> 8) & 15, (sizes >> 4) & 15, version > 0 ? sizes & 15 : 0];
  const count = read.uint(version < 2 ? 2 : 4);
  for (let item = 0; item < count && read.at < iloc.end; item++) {
    const id = read.uint(version < 2 ? 2 : 4);
    const method = version > 0 ? read.uint(2) & 15 : 0;
    read.uint(2);
    const base = read.uint(baseSize);
    const extents = read.uint(2);
    for (let extent = 0; extent < extents; extent++) {
      read.uint(indexSize);
      const offset = read.uint(offsetSize);
      const length = read.uint(lengthSize);
      if (method === 0 && extents === 1) places.set(id, { start: base + offset, length });
    }
  }
  return places;
}

/** HEIC and AVIF: the `Exif` item's TIFF (after its 4-byte header offset) and XMP items, where the head holds them. */
function stripHeif(bytes: Uint8Array, strip: MetadataStrip): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const meta = [...boxes(bytes, view, 0, bytes.length)].find((box) => box.type === 'meta');
  if (!meta) return false;
  const children = [...boxes(bytes, view, meta.body + 4, meta.end)];
  const iinf = children.find((box) => box.type === 'iinf');
  const iloc = children.find((box) => box.type === 'iloc');
  if (!iinf || !iloc) return false;
  const places = itemPlaces(view, iloc);
  let changed = false;
  for (const [id, kind] of metadataItems(bytes, view, iinf)) {
    const place = places.get(id);
    if (!place || place.start + place.length > bytes.length) continue;
    const end = place.start + place.length;
    if (kind === 'xmp') changed = stripXmp(bytes, place.start, end, strip) || changed;
    else if (place.length >= 4) changed = stripTiff(bytes, place.start + 4 + view.getUint32(place.start), end, strip) || changed;
  }
  return changed;
}

const HEIF_BRANDS = ['heic', 'heix', 'heim', 'heis', 'mif1', 'msf1', 'avif', 'avis'];

/**
 * Strips `strip` from the metadata in `head` (a file's first METADATA_HEAD_BYTES, or all of a smaller file), in
 * place and keeping its length; answers whether anything changed. A file of another format is left as it is.
 */
export function stripImageMetadata(head: Uint8Array, strip: MetadataStrip): boolean {
  if (head[0] === 0xff && head[1] === 0xd8) return stripJpeg(head, strip);
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WEBP')) return stripWebp(head, strip);
  if (ascii(head, 4, 'ftyp') && HEIF_BRANDS.some((brand) => ascii(head, 8, brand))) {
    try {
      return stripHeif(head, strip);
    } catch (error) {
      // A box that claims more than the head holds: what was found before it is stripped already.
      if (error instanceof RangeError) return true;
      throw error;
    }
  }
  return false;
}
