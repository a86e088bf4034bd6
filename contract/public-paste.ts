// Apart from contract/pastes.ts (the requests and the management lists), so that a share's page loads only this.
import * as v from 'valibot';
import { pasteEncryptionFieldSchema } from './paste-encryption';

/** A paste as a visitor gets it: content only when unlocked (or open). */
export const publicPasteSchema = v.object({
  slug: v.string(),
  remark: v.nullable(v.string()),
  expiresAt: v.nullable(v.string()),
  maxViews: v.number(),
  views: v.number(),
  hasPassword: v.boolean(),
  requiresPassword: v.boolean(),
  encryption: pasteEncryptionFieldSchema,
  createdAt: v.string(),
  /** The text, or the encrypted payload as stored when `encryption` is set. */
  content: v.optional(v.string()),
  /**
   * The content as HTML (contract/markdown.ts), with the content, unless the text is long (over 64 KiB) or
   * encrypted: a client renders those itself. Not sanitised: it holds whatever HTML the text did, and a client must
   * sanitise it before it shows it.
   */
  contentHtml: v.optional(v.string()),
  /** The viewer created it (admin, or the same API key): the page offers editing, no view was counted. */
  canEdit: v.boolean(),
  id: v.optional(v.string()),
});
export type PublicPaste = v.InferOutput<typeof publicPasteSchema>;
