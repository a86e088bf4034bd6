import type { Readable } from 'node:stream';
import type { Sharp, SharpOptions } from 'sharp';
import { THUMBNAIL_WIDTHS, type ThumbnailSize } from '../../../contract/thumbnails';
import { runTool } from './external-tools';

/** What a thumbnail is made from; each kind has its own decoder. */
export type SourceKind = 'image' | 'pdf' | 'video';

export function sourceKindOf(mimetype: string): SourceKind | undefined {
  if (mimetype === 'application/pdf') return 'pdf';
  if (mimetype.startsWith('video/')) return 'video';
  return mimetype.startsWith('image/') ? 'image' : undefined;
}

/** Refused before decoding: 10,000 × 10,000 is more than any camera makes; a bomb claims far more. */
export const MAX_INPUT_PIXELS = 100_000_000;
const RENDER_SECONDS = 20;
const TOOL_LIMITS = { timeoutMs: RENDER_SECONDS * 1000, maxOutputBytes: 64 * 1024 * 1024 };

/** A picture the decoders would not take: more pixels than allowed. */
export class TooManyPixelsError extends Error {}

const decodeOptions = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', sequentialRead: true } as const;

let loading: Promise<(input?: Buffer, options?: SharpOptions) => Sharp> | undefined;

/**
 * sharp, loaded on the first thumbnail (a server that makes none never loads libvips). The thumbnails are the
 * process's only bulk sharp work: one libvips thread per image (the queue runs two images at once) and no
 * operation cache, so that a folder of photos does not grow the server's memory.
 */
function sharpOf(input: Buffer, options: SharpOptions): Promise<Sharp> {
  loading ??= import('sharp').then(({ default: sharp }) => {
    sharp.concurrency(1);
    sharp.cache(false);
    return sharp;
  });
  return loading.then((sharp) => sharp(input, { ...decodeOptions, ...options }));
}

/** WebP of at most `width` × `width`, EXIF orientation applied, no metadata kept (sharp drops it unless asked). */
async function toWebp(opening: Promise<Sharp>, width: number): Promise<Buffer> {
  try {
    return await (await opening)
      .rotate()
      .resize({ width, height: width, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 78, effort: 2 })
      .timeout({ seconds: RENDER_SECONDS })
      .toBuffer();
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) throw new TooManyPixelsError();
    throw error;
  }
}

/** ISO base media files of the HEIF family (`ftyp` brand heic, heix, hevc, mif1, …): HEIC photos from phones. */
const isHeif = (bytes: Buffer) =>
  bytes.toString('latin1', 4, 8) === 'ftyp' && /^(heic|heix|hevc|hevx|heim|heis|mif1|msf1)$/.test(bytes.toString('latin1', 8, 12));

/**
 * HEVC-coded HEIF, which the prebuilt libvips cannot decode, through libheif in WebAssembly; its size is read
 * from the header and checked before the pixels are decoded.
 */
async function heicToWebp(bytes: Buffer, width: number): Promise<Buffer> {
  const { default: heicDecode } = await import('heic-decode');
  const images = await heicDecode.all({ buffer: bytes });
  try {
    const first = images[0];
    if (!first) throw new Error('no image in the HEIF file');
    if (first.width * first.height > MAX_INPUT_PIXELS) throw new TooManyPixelsError();
    const decoded = await first.decode();
    const raw = { width: decoded.width, height: decoded.height, channels: 4 } as const;
    return await toWebp(sharpOf(Buffer.from(decoded.data.buffer, decoded.data.byteOffset, decoded.data.byteLength), { raw }), width);
  } finally {
    images.dispose();
  }
}

async function imageToWebp(bytes: Buffer, width: number): Promise<Buffer> {
  try {
    return await toWebp(sharpOf(bytes, {}), width);
  } catch (error) {
    if (error instanceof TooManyPixelsError || !isHeif(bytes)) throw error;
    return heicToWebp(bytes, width);
  }
}

/** The first page as PNG, the long side at `width` (pdftoppm reads the PDF from stdin). */
const pdfPage = (source: Readable, width: number) =>
  runTool('pdftoppm', ['-png', '-f', '1', '-l', '1', '-singlefile', '-scale-to', String(width), '-'], source, TOOL_LIMITS);

/**
 * The first frame as PNG, scaled down by ffmpeg. Only the pipe protocol: a "video" that is a playlist naming
 * files or addresses opens none of them.
 */
const videoFrame = (source: Readable, width: number) =>
  runTool(
    'ffmpeg',
    ['-hide_banner', '-loglevel', 'error', '-nostdin', '-protocol_whitelist', 'pipe', '-i', 'pipe:0', '-frames:v', '1', '-vf',
      `scale=w=${width}:h=${width}:force_original_aspect_ratio=decrease`, '-f', 'image2pipe', '-vcodec', 'png', 'pipe:1'],
    source,
    TOOL_LIMITS,
  );

/** What a source is handed over as: images whole in memory (bounded by the caller), PDFs and videos as a stream. */
export type RenderInput = { kind: 'image'; bytes: Buffer } | { kind: 'pdf' | 'video'; stream: Readable };

/** The thumbnail of one source, as WebP. */
export async function renderThumbnail(input: RenderInput, size: ThumbnailSize): Promise<Buffer> {
  const width = THUMBNAIL_WIDTHS[size];
  if (input.kind === 'image') return imageToWebp(input.bytes, width);
  const picture = input.kind === 'pdf' ? await pdfPage(input.stream, width) : await videoFrame(input.stream, width);
  return toWebp(sharpOf(picture, {}), width);
}
