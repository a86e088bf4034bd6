import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { ApiKey, CreateApiKeyRequest, CreatedApiKey, UpdateApiKeyRequest } from '../../../contract/api-keys';
import { GENERATED_KEY_LENGTH } from '../../../contract/api-keys';
import type { AppDeps, Principal } from '../../context';
import type { ApiKeysTable } from '../../db/schema';
import { ApiError, conflict, notFound } from '../../errors';
import { constantTimeEqual, randomBase62, sha256 } from '../../security/tokens';

/** Characters of a key kept for display (`key_masked`): 6 of base62 leave 2^143 of a generated key unknown. */
const MASK_PREFIX = 6;

/** The columns that stand for a key: its SHA-256, by which a presented key is found, and the prefix lists show. */
export const keyColumns = (key: string): Pick<ApiKeysTable, 'key_hash' | 'key_prefix'> => ({
  key_hash: sha256(key),
  key_prefix: key.slice(0, MASK_PREFIX),
});

/**
 * A key as every answer but the creation's shows it. The database holds only the key's SHA-256 and prefix
 * (007-api-key-hashes): the key itself is in the creation's answer and nowhere else.
 */
function present(row: ApiKeysTable): ApiKey {
  return {
    id: row.id,
    name: row.name,
    key_masked: `${row.key_prefix}…`,
    text_permission: row.text_permission === 1,
    file_permission: row.file_permission === 1,
    mount_permission: row.mount_permission === 1,
    expense_permission: row.expense_permission === 1,
    basic_path: row.basic_path,
    expires_at: row.expires_at,
    last_used: row.last_used,
    created_at: row.created_at,
  };
}

function assertFuture(expiresAt: string | null | undefined, now: Date) {
  if (expiresAt && new Date(expiresAt).getTime() <= now.getTime()) {
    throw new ApiError(400, 'api_key_expiry_past', {}, { field: 'expires_at', issue: 'in_past' });
  }
}

async function assertNameFree(deps: AppDeps, name: string, exceptId?: string) {
  let query = deps.db.selectFrom('api_keys').select('id').where('name', '=', name);
  if (exceptId) query = query.where('id', '!=', exceptId);
  if (await query.executeTakeFirst()) throw conflict('api_key_name_taken', 'name');
}

export async function listApiKeys(deps: AppDeps): Promise<ApiKey[]> {
  const rows = await deps.db.selectFrom('api_keys').selectAll().orderBy('created_at', 'desc').execute();
  return rows.map(present);
}

/** Creates a key; the answer is the only time the whole key is shown. */
export async function createApiKey(
  deps: AppDeps,
  input: Required<Omit<CreateApiKeyRequest, 'custom_key'>> & { custom_key?: string },
): Promise<CreatedApiKey> {
  const now = deps.now();
  assertFuture(input.expires_at, now);
  await assertNameFree(deps, input.name);
  const key = input.custom_key ?? randomBase62(GENERATED_KEY_LENGTH);
  const columns = keyColumns(key);
  if (await deps.db.selectFrom('api_keys').select('id').where('key_hash', '=', columns.key_hash).executeTakeFirst()) {
    throw conflict('api_key_taken', 'custom_key');
  }
  const row: ApiKeysTable = {
    id: randomUUID(),
    name: input.name,
    ...columns,
    text_permission: Number(input.text_permission),
    file_permission: Number(input.file_permission),
    mount_permission: Number(input.mount_permission),
    expense_permission: Number(input.expense_permission),
    basic_path: input.basic_path,
    expires_at: input.expires_at ?? null,
    last_used: null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  await deps.db.insertInto('api_keys').values(row).execute();
  return { ...present(row), key };
}

export async function updateApiKey(deps: AppDeps, id: string, input: UpdateApiKeyRequest): Promise<ApiKey> {
  const existing = await deps.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
  if (!existing) throw notFound('api_key_not_found');
  assertFuture(input.expires_at, deps.now());
  if (input.name !== undefined) await assertNameFree(deps, input.name, id);
  const changes: Partial<ApiKeysTable> = { updated_at: deps.now().toISOString() };
  if (input.name !== undefined) changes.name = input.name;
  if (input.expires_at !== undefined) changes.expires_at = input.expires_at;
  if (input.basic_path !== undefined) changes.basic_path = input.basic_path;
  if (input.text_permission !== undefined) changes.text_permission = Number(input.text_permission);
  if (input.file_permission !== undefined) changes.file_permission = Number(input.file_permission);
  if (input.mount_permission !== undefined) changes.mount_permission = Number(input.mount_permission);
  if (input.expense_permission !== undefined) changes.expense_permission = Number(input.expense_permission);
  await deps.db.updateTable('api_keys').set(changes).where('id', '=', id).execute();
  return present({ ...existing, ...changes });
}

export async function deleteApiKey(deps: AppDeps, id: string) {
  const result = await deps.db.deleteFrom('api_keys').where('id', '=', id).executeTakeFirst();
  if (result.numDeletedRows === 0n) throw notFound('api_key_not_found');
}

/**
 * The key behind a presented secret if it exists and has not expired; marks it used. One lookup on the unique
 * index of key_hash; the hash found is compared again in constant time, so that no collation of the database
 * (PostgreSQL's can be case-insensitive) decides alone whether a key matches.
 */
export async function resolveApiKey(deps: AppDeps, presented: string) {
  const hash = sha256(presented);
  const row = await deps.db.selectFrom('api_keys').selectAll().where('key_hash', '=', hash).executeTakeFirst();
  const now = deps.now();
  if (!row || !constantTimeEqual(row.key_hash, hash)) return undefined;
  if (row.expires_at && new Date(row.expires_at).getTime() <= now.getTime()) return undefined;
  await deps.db.updateTable('api_keys').set({ last_used: now.toISOString() }).where('id', '=', row.id).execute();
  return row;
}

/** The principal of a valid key (ApiKey header, or WebDAV's Basic with the key as user and password). */
export const apiKeyPrincipal = (key: Selectable<ApiKeysTable>): Principal => ({
  kind: 'apiKey',
  keyId: key.id,
  name: key.name,
  basicPath: key.basic_path,
  expiresAt: key.expires_at,
  permissions: {
    text: key.text_permission === 1,
    file: key.file_permission === 1,
    mount: key.mount_permission === 1,
    expense: key.expense_permission === 1,
  },
});
