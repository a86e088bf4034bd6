// Apart from contract/files.ts (uploads, the management lists), so that a file share's page loads only this.
import * as v from 'valibot';

/** `GET /api/public/files/{slug}`: info; the URLs only once the view is counted (open, or after verify). */
export const publicFileSchema = v.object({
  slug: v.string(),
  filename: v.string(),
  mimetype: v.string(),
  size: v.number(),
  remark: v.nullable(v.string()),
  created_at: v.string(),
  views: v.number(),
  maxViews: v.number(),
  expiresAt: v.nullable(v.string()),
  hasPassword: v.boolean(),
  requires_password: v.boolean(),
  /** Inline, signed for an hour: opening it counts no further view. */
  previewUrl: v.optional(v.string()),
  /** Attachment, signed for an hour. */
  downloadUrl: v.optional(v.string()),
  /** For images, PDFs and videos: the server's thumbnail, signed as `previewUrl`; add `&size=grid|large`. */
  thumbnailUrl: v.optional(v.string()),
  canEdit: v.boolean(),
  id: v.optional(v.string()),
});
export type PublicFile = v.InferOutput<typeof publicFileSchema>;
