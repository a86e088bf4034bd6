import type { SecondFactorMethod, TotpSetup, TwoFactorStatus } from '../../../contract/two-factor';
import type { DB } from '../../db/database';
import type { SecretBox } from '../../security/secret-box';
import { listPasskeys } from './passkeys';
import { recoveryCodesLeft, replaceRecoveryCodes, spendRecoveryCode } from './recovery-codes';
import { isTotpShaped, newTotpSecret, totpStep, totpUri } from './totp';

/** The admin's row, made on first use (an admin without one has no second factor). */
export async function ensureSecondFactorRow(db: DB, adminId: string, now: Date): Promise<void> {
  await db
    .insertInto('admin_second_factors')
    .values({ admin_id: adminId, updated_at: now.toISOString() })
    .onConflict((conflict) => conflict.column('admin_id').doNothing())
    .execute();
}

const rowOf = (db: DB, adminId: string) =>
  db.selectFrom('admin_second_factors').selectAll().where('admin_id', '=', adminId).executeTakeFirst();

export async function twoFactorStatus(db: DB, adminId: string): Promise<TwoFactorStatus> {
  const [row, passkeys, left] = await Promise.all([rowOf(db, adminId), listPasskeys(db, adminId), recoveryCodesLeft(db, adminId)]);
  const totp = Boolean(row?.totp_secret);
  return { enabled: totp || passkeys.length > 0, totp, recoveryCodesLeft: left, passkeys };
}

/** The second steps a login of this admin may take; none: the password alone logs in. */
export async function secondStepMethods(db: DB, adminId: string): Promise<SecondFactorMethod[]> {
  const status = await twoFactorStatus(db, adminId);
  if (!status.enabled) return [];
  return [...(status.totp ? (['totp'] as const) : []), ...(status.passkeys.length > 0 ? (['passkey'] as const) : []), 'recovery'];
}

/** Whether the admin has TOTP or a passkey on: two small lookups, for paths that ask on every request (WebDAV). */
export async function hasSecondFactor(db: DB, adminId: string): Promise<boolean> {
  const totp = await db.selectFrom('admin_second_factors').select('admin_id').where('admin_id', '=', adminId).where('totp_secret', 'is not', null).executeTakeFirst();
  if (totp) return true;
  return Boolean(await db.selectFrom('admin_passkeys').select('id').where('admin_id', '=', adminId).limit(1).executeTakeFirst());
}

/** Starts TOTP enrolment: a new secret, kept sealed until a first code confirms that the app has it. */
export async function beginTotp(db: DB, secrets: SecretBox, adminId: string, username: string, now: Date): Promise<TotpSetup | undefined> {
  await ensureSecondFactorRow(db, adminId, now);
  if ((await rowOf(db, adminId))?.totp_secret) return undefined;
  const secret = newTotpSecret();
  await db
    .updateTable('admin_second_factors')
    .set({ totp_pending_secret: secrets.seal(secret), updated_at: now.toISOString() })
    .where('admin_id', '=', adminId)
    .execute();
  return { secret, uri: totpUri(secret, username) };
}

/**
 * Turns TOTP on when `code` is right for the secret being enrolled; that code's step counts as used. Answers the
 * new recovery codes when this is the admin's first factor, null when they already had codes; undefined: wrong code.
 */
export async function confirmTotp(db: DB, secrets: SecretBox, adminId: string, code: string, now: Date): Promise<{ recoveryCodes: string[] | null } | undefined> {
  const row = await rowOf(db, adminId);
  if (!row?.totp_pending_secret || row.totp_secret) return undefined;
  const step = isTotpShaped(code) ? totpStep(secrets.open(row.totp_pending_secret), code, now) : undefined;
  if (step === undefined) return undefined;
  const wasEnabled = (await twoFactorStatus(db, adminId)).enabled;
  await db
    .updateTable('admin_second_factors')
    .set({ totp_secret: row.totp_pending_secret, totp_pending_secret: null, totp_last_step: step, totp_enabled_at: now.toISOString(), updated_at: now.toISOString() })
    .where('admin_id', '=', adminId)
    .where('totp_secret', 'is', null)
    .execute();
  return { recoveryCodes: wasEnabled ? null : await replaceRecoveryCodes(db, secrets, adminId, now) };
}

/**
 * Takes a TOTP code whose step is later than the last one used (a code seen once, in its window, is refused), the
 * step recorded only if no other request recorded it or a later one first.
 */
async function spendTotp(db: DB, secrets: SecretBox, adminId: string, code: string, now: Date): Promise<boolean> {
  const row = await rowOf(db, adminId);
  if (!row?.totp_secret) return false;
  const step = totpStep(secrets.open(row.totp_secret), code, now);
  if (step === undefined) return false;
  const taken = await db
    .updateTable('admin_second_factors')
    .set({ totp_last_step: step, updated_at: now.toISOString() })
    .where('admin_id', '=', adminId)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1;
}

/** A second step by code: six digits are a TOTP code, anything else a recovery code. */
export function spendCode(db: DB, secrets: SecretBox, adminId: string, code: string, now: Date): Promise<boolean> {
  const compact = code.replace(/\s/g, '');
  return isTotpShaped(compact) ? spendTotp(db, secrets, adminId, compact, now) : spendRecoveryCode(db, secrets, adminId, code, now);
}

/** Removes every second factor of the admin (turning it off, or `npm run admin -- reset-2fa`), and pending logins. */
export async function clearSecondFactors(db: DB, adminId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('admin_second_factors').where('admin_id', '=', adminId).execute();
    await trx.deleteFrom('admin_recovery_codes').where('admin_id', '=', adminId).execute();
    await trx.deleteFrom('admin_passkeys').where('admin_id', '=', adminId).execute();
    await trx.deleteFrom('admin_pending_logins').where('admin_id', '=', adminId).execute();
  });
}
