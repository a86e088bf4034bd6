import * as v from 'valibot';
import { numberish, optionalSlug } from './lenient';
import { offsetPaginationSchema, offsetQuery, pagePaginationSchema, pageQuery } from './lists';
import { pasteEncryptionFieldSchema } from './paste-encryption';
import { encryptedContentCheck } from './paste-payload';
import { isoTimestampSchema } from './time';

export const PASTE_CONTENT_MAX_BYTES = 10 * 1024 * 1024;
export const PASTE_REMARK_MAX = 500;
export const SHARE_PASSWORD_MAX = 128;
export const ADMIN_PASTE_PAGE_SIZE = 10;
export const PASTE_PAGE_SIZE_MAX = 100;

const utf8Length = (text: string) => new TextEncoder().encode(text).length;

/** Checked against the server's clock by the service: an expiry must lie in the future. */
const expiresAtSchema = v.nullable(isoTimestampSchema);

export const pasteContentSchema = v.pipe(
  v.string(),
  v.check((text) => text.trim().length > 0, 'required'),
  v.check((text) => utf8Length(text) <= PASTE_CONTENT_MAX_BYTES, 'too_large'),
);

const maxViewsSchema = numberish(v.pipe(v.number(), v.integer('must_be_integer'), v.minValue(0, 'must_not_be_negative')));
const remarkSchema = v.pipe(v.string(), v.trim(), v.maxLength(PASTE_REMARK_MAX, 'too_long'));
const passwordSchema = v.pipe(v.string(), v.minLength(1, 'required'), v.maxLength(SHARE_PASSWORD_MAX, 'too_long'));

const createPasteFields = v.object({
  content: pasteContentSchema,
  encryption: pasteEncryptionFieldSchema,
  remark: v.optional(remarkSchema),
  slug: optionalSlug,
  password: v.optional(passwordSchema),
  expiresAt: v.optional(expiresAtSchema),
  maxViews: v.optional(maxViewsSchema, 0),
});
/**
 * `POST /api/paste`. maxViews 0 = unlimited; expiresAt absent or null = never. With `encryption`, `content` is the
 * payload, and the size limit counts the payload.
 */
export const createPasteRequestSchema = v.pipe(
  createPasteFields,
  encryptedContentCheck<v.InferOutput<typeof createPasteFields>>(),
);
export type CreatePasteRequest = v.InferInput<typeof createPasteRequestSchema>;

const updatePasteFields = v.object({
  content: v.optional(pasteContentSchema),
  encryption: pasteEncryptionFieldSchema,
  remark: v.optional(remarkSchema),
  slug: optionalSlug,
  password: v.optional(v.nullable(passwordSchema)),
  expiresAt: v.optional(expiresAtSchema),
  maxViews: v.optional(maxViewsSchema),
});
/**
 * `PUT /api/admin/pastes/{id}` and the user twin: each field optional; password null clears it. `encryption` comes
 * with the `content` it describes (null: plain text); `content` alone keeps the paste's encryption.
 */
export const updatePasteRequestSchema = v.pipe(
  updatePasteFields,
  encryptedContentCheck<v.InferOutput<typeof updatePasteFields>>(),
);
export type UpdatePasteRequest = v.InferInput<typeof updatePasteRequestSchema>;

export const unlockPasteRequestSchema = v.object({ password: v.string() });

export const PASTE_STATES = ['active', 'expired', 'used_up'] as const;
export type PasteState = (typeof PASTE_STATES)[number];

/** What `POST /api/paste` answers. */
export const createdPasteSchema = v.object({
  id: v.string(),
  slug: v.string(),
  remark: v.nullable(v.string()),
  expiresAt: v.nullable(v.string()),
  maxViews: v.number(),
  hasPassword: v.boolean(),
  encryption: pasteEncryptionFieldSchema,
  createdAt: v.string(),
});
export type CreatedPaste = v.InferOutput<typeof createdPasteSchema>;

/** A paste in the admin and user lists. */
export const pasteSummarySchema = v.object({
  id: v.string(),
  slug: v.string(),
  remark: v.nullable(v.string()),
  /** The first 200 characters of the content; empty for an encrypted paste, which the server cannot read. */
  preview: v.string(),
  /** Bytes of the content (of the payload, when encrypted). */
  size: v.number(),
  hasPassword: v.boolean(),
  /** Set: the list shows "End-to-end encrypted" instead of a preview. */
  encryption: pasteEncryptionFieldSchema,
  expiresAt: v.nullable(v.string()),
  maxViews: v.number(),
  views: v.number(),
  state: v.picklist(PASTE_STATES),
  createdBy: v.string(),
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type PasteSummary = v.InferOutput<typeof pasteSummarySchema>;

export const pasteDetailSchema = v.object({ ...pasteSummarySchema.entries, content: v.string() });
export type PasteDetail = v.InferOutput<typeof pasteDetailSchema>;

export const adminPasteListSchema = v.object({ items: v.array(pasteSummarySchema), pagination: pagePaginationSchema });
export const userPasteListSchema = v.object({ items: v.array(pasteSummarySchema), pagination: offsetPaginationSchema });

export const pageQuerySchema = pageQuery(ADMIN_PASTE_PAGE_SIZE, PASTE_PAGE_SIZE_MAX);
export const offsetQuerySchema = offsetQuery(ADMIN_PASTE_PAGE_SIZE, PASTE_PAGE_SIZE_MAX);

export const clearExpiredResultSchema = v.object({ deleted: v.number() });
