import { randomInt, timingSafeEqual } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '../../../contract/two-factor';
import type { DB } from '../../db/database';
import type { SecretBox } from '../../security/secret-box';

/** No 0/o, 1/l/i: codes are read off paper. 10 of 31 characters: about 50 bits each. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const CODE_LENGTH = 10;

function newCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** What people type, as it is hashed: no spaces or dashes, lower case. */
export const normaliseCode = (code: string): string => code.replace(/[\s-]/g, '').toLowerCase();

/**
 * A keyed hash (HMAC under the encryption key) rather than scrypt: the codes are random, so there is nothing to
 * slow a guesser down on, and a login compares against all ten without ten scrypts.
 */
const hashOf = (secrets: SecretBox, adminId: string, code: string) => secrets.sign('recovery-code', `${adminId}:${normaliseCode(code)}`);

/** Replaces the admin's recovery codes with new ones, answered once in plain text; only their hashes are kept. */
export async function replaceRecoveryCodes(db: DB, secrets: SecretBox, adminId: string, now: Date): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  const createdAt = now.toISOString();
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('admin_recovery_codes').where('admin_id', '=', adminId).execute();
    await trx
      .insertInto('admin_recovery_codes')
      .values(codes.map((code) => ({ admin_id: adminId, code_hash: hashOf(secrets, adminId, code), used_at: null, created_at: createdAt })))
      .execute();
  });
  return codes;
}

export async function recoveryCodesLeft(db: DB, adminId: string): Promise<number> {
  const row = await db
    .selectFrom('admin_recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('left'))
    .where('admin_id', '=', adminId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.left ?? 0);
}

/**
 * Spends `code` when it is one of the admin's unused codes: each stored hash is compared in constant time, and the
 * code is marked used only if no other request spent it first.
 */
export async function spendRecoveryCode(db: DB, secrets: SecretBox, adminId: string, code: string, now: Date): Promise<boolean> {
  const presented = Buffer.from(hashOf(secrets, adminId, code));
  const unused = await db
    .selectFrom('admin_recovery_codes')
    .select('code_hash')
    .where('admin_id', '=', adminId)
    .where('used_at', 'is', null)
    .execute();
  let match: string | undefined;
  for (const { code_hash } of unused) {
    const stored = Buffer.from(code_hash);
    if (stored.length === presented.length && timingSafeEqual(stored, presented)) match = code_hash;
  }
  if (match === undefined) return false;
  const spent = await db
    .updateTable('admin_recovery_codes')
    .set({ used_at: now.toISOString() })
    .where('admin_id', '=', adminId)
    .where('code_hash', '=', match)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(spent.numUpdatedRows) === 1;
}
