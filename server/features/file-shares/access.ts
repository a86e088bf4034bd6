import { FILE_LINK_TTL_SECONDS, type FileState } from '../../../contract/files';
import { type PublicFile } from '../../../contract/public-file';
import { hasThumbnail } from '../../../contract/thumbnails';
import type { SharePeek } from '../../../contract/share-peek';
import type { AppDeps, Principal } from '../../context';
import { creatorOf } from '../../context';
import type { DB } from '../../db/database';
import { ApiError } from '../../errors';
import { verifyPassword } from '../../security/passwords';
import type { StorageConfigRow } from '../../storage/registry';
import { fileNotFound, type FileRow } from './records';
import { shareStateOf, viewsLeftOf } from '../shares/share-state';
import { emitEvent, emitExpired } from '../events/bus';
import { fileObject } from '../events/objects';
import { findStorageConfig } from '../storages/configs';
import { viewCountsOf } from '../shares/view-counts';
import { recordPeek, type Visitor } from '../access-log/recorder';

/** What visitors of a share reach: its info, its signed view and download links, and its bytes. */

const gone = (state: Exclude<FileState, 'active'>) =>
  new ApiError(410, state === 'expired' ? 'file_expired' : 'file_used_up', {}, { state });

const LINK_PURPOSE = 'file-link';

/** `<expiry seconds>.<signature>`: lets the bearer open this file's view/download links without counting a view. */
export function fileLinkToken(deps: AppDeps, fileId: string): string {
  const expires = Math.floor(deps.now().getTime() / 1000) + FILE_LINK_TTL_SECONDS;
  return `${expires}.${deps.secrets.sign(LINK_PURPOSE, `${fileId}.${expires}`)}`;
}

export function verifyFileLinkToken(deps: AppDeps, fileId: string, token: string): boolean {
  const [expiresText, signature] = token.split('.');
  const expires = Number(expiresText);
  if (!/^\d{1,12}$/.test(expiresText ?? '') || !signature) return false;
  if (!deps.secrets.verify(LINK_PURPOSE, `${fileId}.${expires}`, signature)) return false;
  return expires * 1000 > deps.now().getTime();
}

export function fileLinks(deps: AppDeps, baseUrl: string, row: Pick<FileRow, 'id' | 'slug' | 'mimetype'>) {
  const token = encodeURIComponent(fileLinkToken(deps, row.id));
  const slug = encodeURIComponent(row.slug);
  return {
    previewUrl: `${baseUrl}/api/file-view/${slug}?token=${token}`,
    downloadUrl: `${baseUrl}/api/file-download/${slug}?token=${token}`,
    ...(hasThumbnail(row.mimetype) && { thumbnailUrl: `${baseUrl}/api/file-thumbnail/${slug}?token=${token}` }),
  };
}

/** The admin, or the API key (still allowed to handle files) that uploaded it. */
export function isFileOwner(principal: Principal, row: Pick<FileRow, 'created_by'>): boolean {
  if (principal.kind === 'admin') return true;
  return principal.kind === 'apiKey' && principal.permissions.file && row.created_by === creatorOf(principal);
}

function publicFileOf(row: FileRow, options: { links?: ReturnType<typeof fileLinks>; owner: boolean }): PublicFile {
  return {
    slug: row.slug,
    filename: row.filename,
    mimetype: row.mimetype,
    size: row.size,
    remark: row.remark,
    created_at: row.created_at,
    views: row.views,
    maxViews: row.max_views,
    expiresAt: row.expires_at,
    hasPassword: row.password_hash !== null,
    requires_password: row.password_hash !== null && !options.links,
    ...(options.links ?? {}),
    canEdit: options.owner,
    ...(options.owner ? { id: row.id } : {}),
  };
}

/**
 * What a file's page may show before the visitor opens it (the peek headers). `requiresPassword`: this caller
 * must still give the password, as `requires_password` of the info says.
 */
export function filePeekOf(
  file: Pick<PublicFile, 'maxViews' | 'views' | 'size' | 'mimetype' | 'expiresAt' | 'requires_password'>,
): SharePeek {
  return {
    requiresPassword: file.requires_password,
    viewsLeft: viewsLeftOf({ max_views: file.maxViews, views: file.views }),
    size: file.size,
    contentType: file.mimetype,
    encryption: null,
    expiresAt: file.expiresAt,
  };
}

async function committedBySlug(db: DB, slug: string): Promise<FileRow> {
  const row = await db.selectFrom('files').selectAll().where('slug', '=', slug).where('status', '=', 'committed').executeTakeFirst();
  if (!row) throw fileNotFound();
  return row;
}

/**
 * One view (announced as a download: what it opens is the file's bytes or the links to them). Without a view limit it is counted in memory and written within a second (see ViewCounts); with one,
 * in one statement with the limit and the expiry in its WHERE (as pastes do).
 */
async function countView(deps: AppDeps, row: FileRow): Promise<FileRow> {
  const counted = await countedView(deps, row);
  emitEvent(deps, 'file.downloaded', fileObject(counted));
  return counted;
}

async function countedView(deps: AppDeps, row: FileRow): Promise<FileRow> {
  if (row.max_views === 0) return { ...row, views: row.views + viewCountsOf(deps).add('files', row.id) };
  const now = deps.now();
  const counted = await deps.db
    .updateTable('files')
    .set((eb) => ({ views: eb('views', '+', 1) }))
    .where('id', '=', row.id)
    .where((eb) => eb.or([eb('max_views', '=', 0), eb('views', '<', eb.ref('max_views'))]))
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now.toISOString())]))
    .returningAll()
    .executeTakeFirst();
  if (counted) return counted;
  const latest = await deps.db.selectFrom('files').selectAll().where('id', '=', row.id).executeTakeFirst();
  if (!latest) throw fileNotFound();
  const after = shareStateOf(latest, now);
  throw gone(after === 'active' ? 'used_up' : after);
}

async function checkPassword(row: FileRow, password: string | undefined) {
  if (row.password_hash === null) return;
  if (!password) throw new ApiError(401, 'password_required', {}, { field: 'password', issue: 'required' });
  if (!(await verifyPassword(password, row.password_hash))) {
    throw new ApiError(401, 'wrong_password', {}, { field: 'password', issue: 'wrong' });
  }
}

/**
 * `GET /api/public/files/{slug}` (`via: 'info'`) and `POST …/verify` (`via: 'verify'`). An open file counts a
 * view and carries signed links; a protected one answers info only until verified. Owners count nothing.
 * `peek` (HEAD) runs every check and counts nothing; `visitor`'s peek goes in the access log.
 */
export async function openFileInfo(
  deps: AppDeps,
  principal: Principal,
  slug: string,
  access: { via: 'info' | 'verify'; password?: string; peek?: boolean; visitor?: Visitor },
  baseUrl: string,
): Promise<PublicFile> {
  const row = await committedBySlug(deps.db, slug);
  const state = shareStateOf(row, deps.now());
  if (state === 'expired') emitExpired(deps, 'file.expired', fileObject(row));
  if (state !== 'active') throw gone(state);
  const owner = isFileOwner(principal, row);
  if (owner) return publicFileOf(row, { owner, links: fileLinks(deps, baseUrl, row) });
  // A peek goes in the access log; the info a GET answers does not: the download it leads to does.
  if (access.peek && access.visitor) recordPeek(deps, { table: 'files', id: row.id }, access.visitor);
  if (row.password_hash !== null && access.via === 'info') return publicFileOf(row, { owner });
  await checkPassword(row, access.password);
  if (access.peek) return publicFileOf(row, { owner });
  const counted = await countView(deps, row);
  return publicFileOf(counted, { owner, links: fileLinks(deps, baseUrl, counted) });
}

/**
 * Who may read the bytes (`/api/file-view`, `/api/file-download`): a valid link token (no view counted, the
 * view was counted when it was handed out; only expiry in time still applies), the owner, or a visitor with
 * the password when one is set, who spends a view.
 */
export async function authorizeFileStream(
  deps: AppDeps,
  principal: Principal,
  slug: string,
  access: { token?: string; password?: string; peek: boolean },
): Promise<FileRow> {
  const row = await committedBySlug(deps.db, slug);
  const now = deps.now();
  const state = shareStateOf(row, now);
  if (state === 'expired') emitExpired(deps, 'file.expired', fileObject(row));
  if (access.token !== undefined) {
    if (state === 'expired') throw gone('expired');
    if (!verifyFileLinkToken(deps, row.id, access.token)) throw new ApiError(403, 'file_link_invalid');
    return row;
  }
  if (state !== 'active') throw gone(state);
  if (isFileOwner(principal, row)) return row;
  await checkPassword(row, access.password);
  if (access.peek) return row;
  return countView(deps, row);
}

/**
 * Who may see a share's thumbnail (`/api/file-thumbnail`), which never counts a view: whoever may read the bytes
 * without spending one (a link token, the owner), or a visitor with the password when one is set. Without a token
 * a share with a view limit shows none, so that its thumbnail cannot stand in for the views it counts.
 */
export async function authorizeFileThumbnail(
  deps: AppDeps,
  principal: Principal,
  slug: string,
  access: { token?: string; password?: string },
): Promise<FileRow> {
  const row = await authorizeFileStream(deps, principal, slug, { ...access, peek: true });
  if (access.token === undefined && row.max_views > 0 && !isFileOwner(principal, row)) throw new ApiError(403, 'file_link_invalid');
  return row;
}

export async function storageOf(deps: AppDeps, row: FileRow): Promise<StorageConfigRow> {
  const config = await findStorageConfig(deps.db, row.storage_config_id);
  if (!config) throw new ApiError(404, 'file_missing');
  return config;
}
