import { slugProblem } from '../../../contract/slugs';
import { hashPassword } from '../../security/passwords';
import { isSlugTaken, type SlugTable } from '../../features/shares/slugs';
import { assertSafeKey } from '../../storage/driver';
import { isReservedAreaKey } from '../../storage/keys';
import { createdAt, exists, isoTime, ownerOf, type ImportContext } from './context';
import type { Kind } from './report';
import type { CpFile, CpPaste } from './source';
import { NOT_BROUGHT_CONFIG } from './storage';

type Share = CpPaste | CpFile;

/**
 * The columns a paste and a file share have alike, or why the share cannot come over: its slug must be one a link
 * of ours can carry, free in the install, and a protected share needs the plain copy of its password CloudPaste
 * keeps (rehashed with scrypt here; CloudPaste's own hash is of no use).
 */
async function shareColumns(ctx: ImportContext, table: SlugTable, kind: Kind, share: Share) {
  const owner = ownerOf(share.created_by);
  const ownerKey = owner.startsWith('apikey:') ? owner.slice('apikey:'.length) : undefined;
  if (ownerKey !== undefined && !ctx.brought.apiKeys.has(ownerKey)) {
    return ctx.report.refuse(kind, share.id, share.slug, "its owner is not an API key this import brings (an id of the install's own, or one missing from the source)");
  }
  const problem = slugProblem(share.slug);
  if (problem) return ctx.report.skip(kind, share.slug, `the slug is not allowed here (${problem})`);
  if (await isSlugTaken(ctx.deps.db, table, share.slug)) return ctx.report.skip(kind, share.slug, 'the install has a share with that slug');
  if (share.password && share.plain_password === null) {
    return ctx.report.skip(kind, share.slug, 'it has a password but CloudPaste kept no plain copy of it to rehash');
  }
  const at = createdAt(ctx, share.created_at);
  return {
    id: share.id,
    slug: share.slug,
    remark: share.remark || null,
    password_hash: share.password && share.plain_password !== null ? await hashPassword(share.plain_password) : null,
    expires_at: isoTime(share.expires_at),
    max_views: share.max_views ?? 0,
    views: share.views ?? 0,
    created_by: owner,
    created_at: at,
    updated_at: isoTime(share.updated_at) ?? at,
  };
}

export async function importPastes(ctx: ImportContext): Promise<void> {
  for (const paste of ctx.data.pastes) {
    if (await exists(ctx, 'pastes', paste.id)) {
      ctx.report.alreadyThere('pastes');
      continue;
    }
    const columns = await shareColumns(ctx, 'pastes', 'pastes', paste);
    if (!columns) continue;
    await ctx.deps.db.insertInto('pastes').values({ ...columns, content: paste.content, encryption: null }).execute();
    ctx.report.add('pastes');
  }
}

/**
 * CloudPaste records a file uploaded through its mount explorer as a share too, with the slug `M-` and the first
 * five characters of its id. Such a file is the mount's: moving it into the share area would take it out of the
 * mount, so it stays a file of the mount only.
 */
const isMountUpload = (file: CpFile): boolean => file.slug === `M-${file.id.slice(0, 5)}`;

/**
 * Why an object key from the source is refused, by the server's own rules for keys (no `..`, `.` or empty segment,
 * no leading `/`, no backslash, no control character) and outside the areas the app keeps for itself.
 */
function storageKeyProblem(key: string): string | undefined {
  try {
    assertSafeKey(key);
  } catch {
    return `its storage path ${JSON.stringify(key)} is not a safe key (a "..", "." or empty segment, an absolute path, a backslash or a control character)`;
  }
  if (isReservedAreaKey(key)) return `its storage path ${JSON.stringify(key)} is in an area Clipstash keeps for itself`;
  return undefined;
}

/**
 * CloudPaste's file shares, committed, at their object's current key: the share-area move (run after the import,
 * see runner.ts) then takes the objects out of the mounts' reach. A share on a storage config this import does not
 * bring, or at an unsafe key, is refused: never written, so no later move tries it again.
 */
export async function importFiles(ctx: ImportContext): Promise<void> {
  for (const file of ctx.data.files) {
    if (await exists(ctx, 'files', file.id)) {
      ctx.report.alreadyThere('file shares');
      continue;
    }
    if (isMountUpload(file)) {
      ctx.report.skip('file shares', file.slug, `uploaded through a mount (${file.storage_path}): it stays a file of the mount, not a share`);
      continue;
    }
    if (!ctx.brought.storageConfigs.has(file.s3_config_id)) {
      ctx.report.refuse('file shares', file.id, file.slug, NOT_BROUGHT_CONFIG);
      continue;
    }
    const keyProblem = storageKeyProblem(file.storage_path);
    if (keyProblem) {
      ctx.report.refuse('file shares', file.id, file.slug, keyProblem);
      continue;
    }
    const columns = await shareColumns(ctx, 'files', 'file shares', file);
    if (!columns) continue;
    await ctx.deps.db
      .insertInto('files')
      .values({
        ...columns,
        filename: file.filename,
        mimetype: file.mimetype || 'application/octet-stream',
        size: file.size,
        storage_config_id: file.s3_config_id,
        storage_path: file.storage_path,
        // Written by the move into the share area, which knows the storage's URL of the new key.
        s3_url: null,
        etag: file.etag,
        status: 'committed',
        upload_id: null,
        part_size: null,
        source_url: null,
      })
      .execute();
    ctx.report.add('file shares');
  }
}
