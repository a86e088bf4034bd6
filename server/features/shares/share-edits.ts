import type { DB } from '../../db/database';
import { ApiError } from '../../errors';
import { hashPassword } from '../../security/passwords';
import { assertSlugFree, type SlugTable } from './slugs';

/** What an owner may change on any share, a paste or a file: the share options. */
export interface ShareEdit {
  remark?: string;
  slug?: string;
  expiresAt?: string | null;
  maxViews?: number;
  password?: string | null;
}

/** The columns a share edit sets; pastes and files name them alike. */
export interface ShareEditColumns {
  updated_at: string;
  remark?: string | null;
  slug?: string;
  expires_at?: string | null;
  max_views?: number;
  password_hash?: string | null;
}

/** Expiries are stored as canonical UTC ISO text (the contract normalises them), so text order is time order. */
export function assertFuture(expiresAt: string | null | undefined, now: Date): void {
  if (expiresAt && expiresAt <= now.toISOString()) {
    throw new ApiError(400, 'share_expiry_past', {}, { field: 'expiresAt', issue: 'in_past' });
  }
}

/** Checks an edit of share `id` (expiry ahead, slug free) and answers the columns it sets; an empty remark clears it. */
export async function shareEditColumns(db: DB, table: SlugTable, id: string, input: ShareEdit, now: Date): Promise<ShareEditColumns> {
  assertFuture(input.expiresAt, now);
  if (input.slug !== undefined) await assertSlugFree(db, table, input.slug, id);
  const changes: ShareEditColumns = { updated_at: now.toISOString() };
  if (input.remark !== undefined) changes.remark = input.remark ? input.remark : null;
  if (input.slug !== undefined) changes.slug = input.slug;
  if (input.expiresAt !== undefined) changes.expires_at = input.expiresAt;
  if (input.maxViews !== undefined) changes.max_views = input.maxViews;
  if (input.password !== undefined) changes.password_hash = input.password === null ? null : await hashPassword(input.password);
  return changes;
}
