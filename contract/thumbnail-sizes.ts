// Apart from contract/thumbnails.ts (schemas), so that a share's page loads only this.

/** Thumbnails the server makes (`fs/thumbnail`, `file-thumbnail/{slug}`): their widths, for `srcset` too. */
export const THUMBNAIL_WIDTHS = { grid: 256, large: 1280 } as const;
export type ThumbnailSize = keyof typeof THUMBNAIL_WIDTHS;

/** Types the server may make a thumbnail of (images, PDFs' first page, a frame of a video when it has ffmpeg). */
const THUMBNAIL_IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/heic', 'image/heif']);
export const hasThumbnail = (mimetype: string | null | undefined): boolean =>
  !!mimetype && (THUMBNAIL_IMAGE_TYPES.has(mimetype) || mimetype === 'application/pdf' || mimetype.startsWith('video/'));
