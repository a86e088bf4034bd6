import * as v from 'valibot';
import { fsPathSchema } from './fs-paths';

export { hasThumbnail, THUMBNAIL_WIDTHS, type ThumbnailSize } from './thumbnail-sizes';

const sizeField = v.optional(v.picklist(['grid', 'large'], 'invalid_size'), 'grid');

/** `GET /api/{admin,user}/fs/thumbnail`. `v` (the entry's ETag or time) only tells caches apart; any value is taken. */
export const fsThumbnailQuerySchema = v.object({
  path: fsPathSchema,
  size: sizeField,
  v: v.optional(v.pipe(v.string(), v.maxLength(200, 'too_long'))),
});

/** `GET /api/file-thumbnail/{slug}`: the share's link token, or its password, as `file-view` takes them. */
export const fileThumbnailQuerySchema = v.object({
  size: sizeField,
  token: v.optional(v.string()),
  password: v.optional(v.string()),
});

/** `POST /api/{admin,user}/fs/thumbnail-links`: signed thumbnail URLs for `<img>`, which sends no credentials. */
export const FS_THUMBNAIL_LINKS_MAX = 200;
export const fsThumbnailLinksRequestSchema = v.object({
  paths: v.pipe(v.array(fsPathSchema), v.minLength(1, 'required'), v.maxLength(FS_THUMBNAIL_LINKS_MAX, 'too_many')),
});
export const fsThumbnailLinksSchema = v.object({
  /** Per path asked for (as normalised); a path the caller may not read, or without a thumbnail type, is left out. */
  links: v.array(v.object({ path: v.string(), grid: v.string(), large: v.string() })),
});
export type FsThumbnailLinks = v.InferOutput<typeof fsThumbnailLinksSchema>;

/** `GET /api/fs-thumbnail`: what a signed link carries. */
export const signedThumbnailQuerySchema = v.object({
  path: fsPathSchema,
  mount: v.string(),
  size: sizeField,
  v: v.optional(v.string()),
  expires: v.pipe(v.string(), v.regex(/^\d{1,12}$/, 'invalid')),
  sig: v.string(),
});
