import type { RawAnswer } from './types';

/** The answers of a stored object served with Range support (server/storage/serve-object.ts). */
export const objectStream: readonly RawAnswer[] = [
  {
    status: 200,
    contentType: 'application/octet-stream',
    description: 'The whole object, with its own content type.',
    headers: ['ETag', 'Content-Length', 'Content-Disposition', 'Accept-Ranges'],
  },
  { status: 206, contentType: 'application/octet-stream', description: 'The one byte range asked for with `Range`.', headers: ['Content-Range'] },
];

/** A thumbnail (server/features/thumbnails/routes.ts): WebP, or 304 for the ETag the browser holds. */
export const thumbnailAnswer: readonly RawAnswer[] = [
  { status: 200, contentType: 'image/webp', description: 'The thumbnail: WebP, no metadata.', headers: ['ETag', 'Cache-Control', 'Content-Length'] },
  { status: 304, description: 'The thumbnail named by `If-None-Match` is still current (no body).', headers: ['ETag'] },
];

/** What a thumbnail route says besides its access rules. */
export const THUMBNAIL_TEXT =
  'JPEG, PNG, WebP, GIF, AVIF and HEIC images, the first page of a PDF and a frame of a video (where the server has ' +
  '`pdftoppm` and `ffmpeg`), made on the first request and cached in the storage; `size` is `grid` (256 px) or ' +
  '`large` (1280 px). 413 for a file over 64 MiB or over 100 million pixels, 415 for another type, 422 for a file ' +
  'that does not decode, 429 while too many are being made.';
