import { randomUUID } from 'node:crypto';
import { sql, type Selectable, type Updateable } from 'kysely';
import type * as v from 'valibot';
import type { CreatedPaste, createPasteRequestSchema, PasteDetail, PasteState, PasteSummary, updatePasteRequestSchema } from '../../../contract/pastes';
import type { PublicPaste } from '../../../contract/public-paste';
import type { PasteEncryption } from '../../../contract/paste-encryption';
import { encryptedPayloadIssue } from '../../../contract/paste-payload';
import { ENCRYPTED_PASTE_TYPE, PASTE_TEXT_TYPE, type SharePeek } from '../../../contract/share-peek';
import type { AppDeps, Principal } from '../../context';
import { creatorOf } from '../../context';
import type { DB } from '../../db/database';
import { keptSelect, newestPage, type KeptSelect } from '../../db/dialect';
import type { PastesTable } from '../../db/schema';
import { ApiError, badInput, notFound } from '../../errors';
import { markdownHtml } from './markdown';
import { shareStateOf, viewsLeftOf } from '../shares/share-state';
import { hashPassword, verifyPassword } from '../../security/passwords';
import { assertFuture, shareEditColumns } from '../shares/share-edits';
import { slugConflictsAs409, writeWithSlug } from '../shares/slugs';
import { viewCountsOf } from '../shares/view-counts';
import { emitEvent, emitExpired } from '../events/bus';
import { pasteObject } from '../events/objects';
import { accessRecorderOf, type Visitor } from '../access-log/recorder';

type PasteRow = Selectable<PastesTable>;

/** The bodies after the contract's transforms (expiresAt canonical UTC, maxViews defaulted, remark trimmed). */
export type CreatePasteInput = v.InferOutput<typeof createPasteRequestSchema>;
export type UpdatePasteInput = v.InferOutput<typeof updatePasteRequestSchema>;

/** Whose pastes a management call may touch: every paste (admin routes) or one creator's (`admin`, `apikey:<id>`). */
export type PasteScope = { all: true } | { all: false; createdBy: string };

export const PREVIEW_CHARS = 200;

const gone = (state: Exclude<PasteState, 'active'>) =>
  new ApiError(410, state === 'expired' ? 'paste_expired' : 'paste_used_up', {}, { state });

const pasteNotFound = () => notFound('paste_not_found');

const emptyToNull = (text: string | undefined) => (text ? text : null);

/** An edit that sends only `content` keeps the paste's encryption: the content must then be a payload too. */
function assertPayload(content: string, encryption: PasteEncryption | null | undefined) {
  const issue = encryption ? encryptedPayloadIssue(content) : undefined;
  if (issue) throw badInput('content', issue);
}

// ---------------------------------------------------------------------------------------------- create

export async function createPaste(
  deps: AppDeps,
  principal: Principal,
  input: CreatePasteInput,
): Promise<CreatedPaste> {
  const now = deps.now();
  assertFuture(input.expiresAt, now);
  const passwordHash = input.password !== undefined ? await hashPassword(input.password) : null;
  const stamp = now.toISOString();
  const row = await writeWithSlug(deps.db, 'pastes', input.slug, async (slug) => {
    const values = {
      id: randomUUID(),
      slug,
      content: input.content,
      encryption: input.encryption ?? null,
      remark: emptyToNull(input.remark),
      password_hash: passwordHash,
      expires_at: input.expiresAt ?? null,
      max_views: input.maxViews,
      created_by: creatorOf(principal),
      created_at: stamp,
      updated_at: stamp,
    };
    await deps.db.insertInto('pastes').values(values).execute();
    return values;
  });
  emitEvent(deps, 'paste.created', pasteObject({ ...row, views: 0 }));
  return {
    id: row.id,
    slug: row.slug,
    remark: row.remark,
    expiresAt: row.expires_at,
    maxViews: row.max_views,
    hasPassword: row.password_hash !== null,
    encryption: row.encryption,
    createdAt: row.created_at,
  };
}

// ---------------------------------------------------------------------------------------------- public view

/**
 * How a visitor reaches a paste:
 * - `page`: `GET /api/paste/{slug}`; a protected paste answers its meta only.
 * - `unlock`: `POST /api/paste/{slug}` with the password.
 * - `raw`: `GET /api/raw/{slug}?password=`; a protected paste needs the password.
 * `peek` (a HEAD request) runs every check but counts no view and returns no content.
 * `visitor`: who asked, for the paste's access log (views and peeks of anyone but its owner).
 */
export interface PasteAccess {
  via: 'page' | 'unlock' | 'raw';
  password?: string;
  peek?: boolean;
  visitor?: Visitor;
}

/** The admin, or the API key (still allowed to handle text) that created it. */
export function isOwner(principal: Principal, row: Pick<PasteRow, 'created_by'>): boolean {
  if (principal.kind === 'admin') return true;
  return principal.kind === 'apiKey' && principal.permissions.text && row.created_by === creatorOf(principal);
}

/**
 * The paste's HTML for its page, where the server renders it (see markdownHtml). Never for an encrypted paste: its
 * content is a payload only the reader's key turns back into text.
 */
function htmlOf(row: PasteRow): { contentHtml?: string } {
  if (row.encryption !== null) return {};
  const contentHtml = markdownHtml(row.content, row.id);
  return contentHtml === undefined ? {} : { contentHtml };
}

/** A paste as a visitor opened it, and what its page may show before the content (the peek headers). */
export interface OpenedPaste {
  paste: PublicPaste;
  peek: SharePeek;
}

/** `unlocked`: the caller gave the password, though a peek answers no content. */
function publicView(row: PasteRow, options: { content: boolean; owner: boolean; unlocked?: boolean }): OpenedPaste {
  const locked = row.password_hash !== null && !options.content && !options.owner && !options.unlocked;
  const paste: PublicPaste = {
    slug: row.slug,
    remark: row.remark,
    expiresAt: row.expires_at,
    maxViews: row.max_views,
    views: row.views,
    hasPassword: row.password_hash !== null,
    requiresPassword: locked,
    encryption: row.encryption,
    createdAt: row.created_at,
    ...(options.content ? { content: row.content, ...htmlOf(row) } : {}),
    canEdit: options.owner,
    ...(options.owner ? { id: row.id } : {}),
  };
  const peek: SharePeek = {
    requiresPassword: locked,
    viewsLeft: viewsLeftOf(row),
    size: Buffer.byteLength(row.content),
    contentType: row.encryption === null ? PASTE_TEXT_TYPE : ENCRYPTED_PASTE_TYPE,
    encryption: row.encryption,
    expiresAt: row.expires_at,
  };
  return { paste, peek };
}

/**
 * Counts one view of a paste with a view limit and returns the paste as counted, in one statement: the limit and the expiry are in the
 * WHERE, so concurrent readers can never count past `max_views`. No row → the paste is gone (or was deleted).
 */
async function countView(db: DB, id: string, now: Date): Promise<PasteRow | undefined> {
  return db
    .updateTable('pastes')
    .set((eb) => ({ views: eb('views', '+', 1) }))
    .where('id', '=', id)
    .where((eb) => eb.or([eb('max_views', '=', 0), eb('views', '<', eb.ref('max_views'))]))
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now.toISOString())]))
    .returningAll()
    .executeTakeFirst();
}

const slugLookups = new WeakMap<DB, KeptSelect<PasteRow>>();

/** The paste with `slug`. Every read runs this one query: it is kept per database (see keptSelect). */
function pasteBySlug(db: DB, slug: string): Promise<PasteRow | undefined> {
  let lookup = slugLookups.get(db);
  if (!lookup) {
    lookup = keptSelect(db, db.selectFrom('pastes').selectAll().where('slug', '=', ''));
    slugLookups.set(db, lookup);
  }
  return lookup([slug]);
}

/** The id of the paste with `slug`, if any: CloudPaste's frontend names a paste it edits by its slug. */
export async function pasteIdOfSlug(db: DB, slug: string): Promise<string | undefined> {
  return (await pasteBySlug(db, slug))?.id;
}

/** `opened`, once put in the access log: a peek, or a view whose bytes are the content's. */
function logged(deps: AppDeps, access: PasteAccess, opened: OpenedPaste, id: string): OpenedPaste {
  if (access.visitor) {
    accessRecorderOf(deps).record({
      share: { table: 'pastes', id },
      visitor: access.visitor,
      kind: access.peek ? 'peek' : 'view',
      bytes: access.peek ? 0 : opened.peek.size,
      completed: true,
      at: deps.now(),
    });
  }
  return opened;
}

/** A visitor (or the owner) opening a share; see PasteAccess. Throws 404, 410 or 401 as the rules say. */
export async function openPaste(
  deps: AppDeps,
  principal: Principal,
  slug: string,
  access: PasteAccess,
): Promise<OpenedPaste> {
  const row = await pasteBySlug(deps.db, slug);
  if (!row) throw pasteNotFound();
  const state = shareStateOf(row, deps.now());
  if (state === 'expired') emitExpired(deps, 'paste.expired', pasteObject(row));
  if (state !== 'active') throw gone(state);

  const owner = isOwner(principal, row);
  if (owner) return publicView(row, { content: !access.peek, owner });

  if (row.password_hash !== null) {
    if (access.via === 'page') {
      const meta = publicView(row, { content: false, owner });
      return access.peek ? logged(deps, access, meta, row.id) : meta;
    }
    if (!access.password) throw new ApiError(401, 'password_required', {}, { field: 'password', issue: 'required' });
    if (!(await verifyPassword(access.password, row.password_hash))) {
      throw new ApiError(401, 'wrong_password', {}, { field: 'password', issue: 'wrong' });
    }
  }
  if (access.peek) return logged(deps, access, publicView(row, { content: false, owner, unlocked: true }), row.id);

  if (row.max_views === 0) {
    // No limit to keep: the view is counted in memory and written within a second (see ViewCounts).
    const unwritten = viewCountsOf(deps).add('pastes', row.id);
    const viewed = { ...row, views: row.views + unwritten };
    emitEvent(deps, 'paste.viewed', pasteObject(viewed));
    return logged(deps, access, publicView(viewed, { content: true, owner }), row.id);
  }
  const counted = await countView(deps.db, row.id, deps.now());
  if (counted) {
    emitEvent(deps, 'paste.viewed', pasteObject(counted));
    return logged(deps, access, publicView(counted, { content: true, owner }), row.id);
  }
  // Lost the race for the last view, expired meanwhile, or deleted meanwhile.
  const latest = await deps.db.selectFrom('pastes').selectAll().where('id', '=', row.id).executeTakeFirst();
  if (!latest) throw pasteNotFound();
  const after = shareStateOf(latest, deps.now());
  throw gone(after === 'active' ? 'used_up' : after);
}

// ---------------------------------------------------------------------------------------------- management

/** The summary columns, computed in SQL so a list (or a search) never loads whole contents. */
export function pasteSummaries(db: DB, scope: PasteScope) {
  let query = db
    .selectFrom('pastes')
    .select([
      'id',
      'slug',
      'remark',
      'password_hash',
      'expires_at',
      'max_views',
      'views',
      'created_by',
      'created_at',
      'updated_at',
      'encryption',
      // An encrypted paste's payload is no text to preview.
      sql<string>`case when encryption is null then substr(content, 1, ${PREVIEW_CHARS}) else '' end`.as('preview'),
      sql<number>`octet_length(content)`.as('size'),
    ]);
  if (!scope.all) query = query.where('created_by', '=', scope.createdBy);
  return query;
}

type SummaryRow = Omit<PasteRow, 'content'> & { preview: string; size: number };

export function toPasteSummary(row: SummaryRow, now: Date): PasteSummary {
  return {
    id: row.id,
    slug: row.slug,
    remark: row.remark,
    preview: row.preview,
    size: row.size,
    hasPassword: row.password_hash !== null,
    encryption: row.encryption,
    expiresAt: row.expires_at,
    maxViews: row.max_views,
    views: row.views,
    state: shareStateOf(row, now),
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

async function countPastes(db: DB, scope: PasteScope): Promise<number> {
  let query = db.selectFrom('pastes').select((eb) => eb.fn.countAll<number>().as('total'));
  if (!scope.all) query = query.where('created_by', '=', scope.createdBy);
  return Number((await query.executeTakeFirstOrThrow()).total);
}

/** Newest first; insertion order breaks ties between pastes created in the same millisecond. */
async function listSlice(deps: AppDeps, scope: PasteScope, limit: number, offset: number) {
  const rows = await newestPage(pasteSummaries(deps.db, scope), deps.db, limit, offset).execute();
  const now = deps.now();
  return rows.map((row) => toPasteSummary(row, now));
}

export async function listPastesByPage(deps: AppDeps, scope: PasteScope, page: number, limit: number) {
  await viewCountsOf(deps).flush(); // Management reads see every counted view.
  const total = await countPastes(deps.db, scope);
  const items = await listSlice(deps, scope, limit, (page - 1) * limit);
  return { items, pagination: { total, page, limit, totalPages: Math.ceil(total / limit) } };
}

export async function listPastesByOffset(deps: AppDeps, scope: PasteScope, limit: number, offset: number) {
  await viewCountsOf(deps).flush(); // Management reads see every counted view.
  const total = await countPastes(deps.db, scope);
  const items = await listSlice(deps, scope, limit, offset);
  return { items, pagination: { total, limit, offset, hasMore: offset + items.length < total } };
}

export async function getPaste(deps: AppDeps, scope: PasteScope, id: string): Promise<PasteDetail> {
  await viewCountsOf(deps).flush(); // Management reads see every counted view.
  const row = await pasteSummaries(deps.db, scope).select('content').where('id', '=', id).executeTakeFirst();
  if (!row) throw pasteNotFound();
  return { ...toPasteSummary(row, deps.now()), content: row.content };
}

export async function updatePaste(
  deps: AppDeps,
  scope: PasteScope,
  id: string,
  input: UpdatePasteInput,
): Promise<PasteDetail> {
  await viewCountsOf(deps).flush(); // A new view limit starts from every view counted so far.
  const current = await getPaste(deps, scope, id);
  const changes: Updateable<PastesTable> = await shareEditColumns(deps.db, 'pastes', id, input, deps.now());
  if (input.content !== undefined) {
    changes.content = input.content;
    changes.encryption = (input.encryption === undefined ? current.encryption : input.encryption) ?? null;
    assertPayload(input.content, changes.encryption);
  }
  await slugConflictsAs409('pastes', () => deps.db.updateTable('pastes').set(changes).where('id', '=', id).execute());
  return getPaste(deps, scope, id);
}

export async function deletePaste(deps: AppDeps, scope: PasteScope, id: string): Promise<void> {
  let query = deps.db.deleteFrom('pastes').where('id', '=', id);
  if (!scope.all) query = query.where('created_by', '=', scope.createdBy);
  const result = await query.executeTakeFirst();
  if (result.numDeletedRows === 0n) throw pasteNotFound();
}

/** Deletes what exists in scope; ids that are unknown or someone else's count as missing (repeats count once). */
export async function deletePastes(deps: AppDeps, scope: PasteScope, ids: string[]) {
  const unique = [...new Set(ids)];
  let query = deps.db.deleteFrom('pastes').where('id', 'in', unique);
  if (!scope.all) query = query.where('created_by', '=', scope.createdBy);
  const result = await query.executeTakeFirst();
  const deleted = Number(result.numDeletedRows);
  return { deleted, missing: unique.length - deleted };
}

/** Removes every expired and every used-up paste; the expired ones are announced (once, as when opened). */
export async function clearExpiredPastes(deps: AppDeps) {
  const now = deps.now().toISOString();
  const expired = await pasteSummaries(deps.db, { all: true })
    .where('expires_at', 'is not', null)
    .where('expires_at', '<=', now)
    .execute();
  const result = await deps.db
    .deleteFrom('pastes')
    .where((eb) =>
      eb.or([
        eb.and([eb('expires_at', 'is not', null), eb('expires_at', '<=', now)]),
        eb.and([eb('max_views', '>', 0), eb('views', '>=', eb.ref('max_views'))]),
      ]),
    )
    .executeTakeFirst();
  for (const row of expired) emitExpired(deps, 'paste.expired', pasteObject(row));
  return { deleted: Number(result.numDeletedRows) };
}
