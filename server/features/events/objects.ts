import type { Selectable } from 'kysely';
import type { ExpenseClaimDetail } from '../../../contract/expenses';
import type { FileRequestUpload } from '../../../contract/file-requests';
import type { FileRequestsTable, FilesTable, JobsTable, PastesTable } from '../../db/schema';

/**
 * The objects events carry, each field picked by name: a password, its hash, a paste's text (encrypted or not: a
 * receiver that wants it asks the API) and storage internals never reach a receiver.
 */
type PasteFields = 'id' | 'slug' | 'remark' | 'password_hash' | 'encryption' | 'expires_at' | 'max_views' | 'views' | 'created_by' | 'created_at';

export function pasteObject(row: Pick<Selectable<PastesTable>, PasteFields>) {
  return {
    id: row.id,
    slug: row.slug,
    remark: row.remark,
    hasPassword: row.password_hash !== null,
    encrypted: row.encryption !== null,
    expiresAt: row.expires_at,
    maxViews: row.max_views,
    views: row.views,
    createdBy: row.created_by,
    createdAt: row.created_at,
  };
}

export function fileObject(row: Selectable<FilesTable>) {
  return {
    id: row.id,
    slug: row.slug,
    filename: row.filename,
    mimetype: row.mimetype,
    size: Number(row.size),
    remark: row.remark,
    hasPassword: row.password_hash !== null,
    expiresAt: row.expires_at,
    maxViews: row.max_views,
    views: row.views,
    createdBy: row.created_by,
    createdAt: row.created_at,
  };
}

export function fileRequestObject(row: Selectable<FileRequestsTable>) {
  return { id: row.id, slug: row.slug, title: row.title, targetKind: row.target_kind, createdBy: row.created_by };
}

export function receivedFileObject(upload: FileRequestUpload) {
  return { id: upload.id, filename: upload.filename, size: upload.size, senderName: upload.sender_name, shareSlug: upload.share_slug };
}

export function expenseObject(claim: ExpenseClaimDetail) {
  const last = claim.events.at(-1);
  return {
    id: claim.id,
    title: claim.title,
    amountMinor: claim.amount_minor,
    currency: claim.currency,
    spentOn: claim.spent_on,
    category: claim.category,
    status: claim.status,
    ownerName: claim.owner_name,
    createdBy: claim.created_by,
    note: last?.note ?? null,
  };
}

export function jobObject(row: Pick<Selectable<JobsTable>, 'id' | 'type' | 'summary' | 'target' | 'created_by' | 'created_at'>, status: string, finishedAt: string) {
  return { id: row.id, type: row.type, status, summary: row.summary, target: row.target, createdBy: row.created_by, createdAt: row.created_at, finishedAt };
}
