import { isCleanAbsolutePath, normalizeBasicPath } from '../../../contract/api-keys';
import { CLOUDPASTE_HASH_PREFIX } from '../../features/auth/admins';
import { keyColumns } from '../../features/auth/api-keys';
import { createdAt, exists, isoTime, type ImportContext } from './context';

/** CloudPaste's "never expires". */
const NEVER = '9999-12-31T23:59:59.000Z';

/**
 * CloudPaste's admin, with the SHA-256 it stored (accepted once at login, then replaced by scrypt: see
 * verifyAdminPassword). An install's own admin of the same name takes the account over (its sessions end) unless
 * the import merges: then it keeps its password. The row takes CloudPaste's id, so that a second run finds it.
 */
export async function importAdmins(ctx: ImportContext): Promise<void> {
  const { db } = ctx.deps;
  const at = ctx.deps.now().toISOString();
  for (const admin of ctx.data.admins) {
    if (await exists(ctx, 'admins', admin.id)) {
      ctx.report.alreadyThere('admin');
      continue;
    }
    if (!/^[0-9a-f]{64}$/i.test(admin.password)) {
      ctx.report.skip('admin', admin.username, 'its stored password is not the SHA-256 CloudPaste writes');
      continue;
    }
    const passwordHash = `${CLOUDPASTE_HASH_PREFIX}${admin.password.toLowerCase()}`;
    const same = await db.selectFrom('admins').select('id').where('username', '=', admin.username).executeTakeFirst();
    if (same && ctx.options.merge) {
      ctx.report.skip('admin', admin.username, 'the install has an admin of that name; it keeps its own password');
      continue;
    }
    if (same) {
      await db.deleteFrom('admin_tokens').where('admin_id', '=', same.id).execute();
      await db.updateTable('admins').set({ id: admin.id, password_hash: passwordHash, updated_at: at }).where('id', '=', same.id).execute();
    } else {
      await db.insertInto('admins').values({ id: admin.id, username: admin.username, password_hash: passwordHash, created_at: at, updated_at: at }).execute();
    }
    ctx.report.add('admin');
  }
}

/**
 * CloudPaste's API keys with their permissions and base paths, stored as SHA-256 like ours; their ids are kept. A
 * key whose id the install holds is an earlier run's only when it has the same secret; otherwise it is refused.
 */
export async function importApiKeys(ctx: ImportContext): Promise<void> {
  const { db } = ctx.deps;
  for (const key of ctx.data.apiKeys) {
    if (await exists(ctx, 'api_keys', key.id)) {
      const row = await db.selectFrom('api_keys').select('key_hash').where('id', '=', key.id).executeTakeFirstOrThrow();
      if (row.key_hash === keyColumns(key.key).key_hash) {
        ctx.brought.apiKeys.add(key.id);
        ctx.report.alreadyThere('API keys');
      } else {
        ctx.report.refuse('API keys', key.id, key.name, "its id is an API key of the install's own, not one an earlier import made");
      }
      continue;
    }
    const basicPath = normalizeBasicPath((key.basic_path ?? '/').trim() || '/');
    if (!isCleanAbsolutePath(basicPath)) {
      ctx.report.skip('API keys', key.name, `its base path ${key.basic_path ?? ''} is not a clean absolute path`);
      continue;
    }
    if (await db.selectFrom('api_keys').select('id').where('name', '=', key.name).executeTakeFirst()) {
      ctx.report.skip('API keys', key.name, 'the install has a key of that name');
      continue;
    }
    const columns = keyColumns(key.key);
    if (await db.selectFrom('api_keys').select('id').where('key_hash', '=', columns.key_hash).executeTakeFirst()) {
      ctx.report.skip('API keys', key.name, 'the install has a key with the same secret');
      continue;
    }
    const at = createdAt(ctx, key.created_at);
    const expiresAt = isoTime(key.expires_at);
    await db
      .insertInto('api_keys')
      .values({
        id: key.id,
        name: key.name,
        ...columns,
        text_permission: key.text_permission ? 1 : 0,
        file_permission: key.file_permission ? 1 : 0,
        mount_permission: key.mount_permission ? 1 : 0,
        expense_permission: 0,
        basic_path: basicPath,
        expires_at: expiresAt === NEVER ? null : expiresAt,
        last_used: isoTime(key.last_used),
        created_at: at,
        updated_at: at,
      })
      .execute();
    ctx.brought.apiKeys.add(key.id);
    ctx.report.add('API keys');
  }
}
