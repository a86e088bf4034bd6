import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Passkey } from '../../../contract/two-factor';
import type { DB } from '../../db/database';

/** Who the passkeys are for: the site's host name (the RP ID) and the origin its pages run at. */
export interface RelyingParty {
  id: string;
  origin: string;
}

/** How long a browser has to answer a WebAuthn challenge. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

export async function listPasskeys(db: DB, adminId: string): Promise<Passkey[]> {
  const rows = await db
    .selectFrom('admin_passkeys')
    .select(['id', 'name', 'created_at', 'last_used_at'])
    .where('admin_id', '=', adminId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ id: row.id, name: row.name, createdAt: row.created_at, lastUsedAt: row.last_used_at }));
}

const credentialsOf = (db: DB, adminId: string) =>
  db.selectFrom('admin_passkeys').selectAll().where('admin_id', '=', adminId).execute();

const transportsOf = (json: string) => JSON.parse(json) as AuthenticatorTransport[];

/**
 * Options for registering a new passkey; its challenge is kept on the admin's row until the answer comes. Passkeys
 * the admin has are excluded, so one authenticator is not registered twice.
 */
export async function registrationOptions(db: DB, admin: { id: string; username: string }, rp: RelyingParty, now: Date): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await credentialsOf(db, admin.id);
  const options = await generateRegistrationOptions({
    rpName: 'Clipstash',
    rpID: rp.id,
    userName: admin.username,
    userID: new TextEncoder().encode(admin.id),
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({ id: row.id, transports: transportsOf(row.transports) })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  await db
    .updateTable('admin_second_factors')
    .set({ passkey_challenge: options.challenge, passkey_challenge_expires_at: new Date(now.getTime() + CHALLENGE_TTL_MS).toISOString(), updated_at: now.toISOString() })
    .where('admin_id', '=', admin.id)
    .execute();
  return options;
}

/** Checks a registration against the challenge handed out and keeps the new passkey; false when it does not hold. */
export async function registerPasskey(db: DB, adminId: string, name: string, credential: RegistrationResponseJSON, rp: RelyingParty, now: Date): Promise<boolean> {
  const row = await db
    .selectFrom('admin_second_factors')
    .select(['passkey_challenge', 'passkey_challenge_expires_at'])
    .where('admin_id', '=', adminId)
    .executeTakeFirst();
  if (!row?.passkey_challenge || !row.passkey_challenge_expires_at || row.passkey_challenge_expires_at <= now.toISOString()) return false;
  // The challenge is good for one answer, right or wrong.
  await db.updateTable('admin_second_factors').set({ passkey_challenge: null, passkey_challenge_expires_at: null }).where('admin_id', '=', adminId).execute();
  const verification = await verifyRegistrationResponse({
    response: credential,
    expectedChallenge: row.passkey_challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: false,
  }).catch(() => undefined);
  if (!verification?.verified) return false;
  const { credential: created } = verification.registrationInfo;
  await db
    .insertInto('admin_passkeys')
    .values({
      id: created.id,
      admin_id: adminId,
      name,
      public_key: Buffer.from(created.publicKey).toString('base64url'),
      counter: created.counter,
      transports: JSON.stringify(created.transports ?? []),
      created_at: now.toISOString(),
      last_used_at: null,
    })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute();
  return true;
}

/** Options for a login's passkey step: any of the admin's passkeys. */
export async function authenticationOptions(db: DB, adminId: string, rp: RelyingParty): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const existing = await credentialsOf(db, adminId);
  return generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: existing.map((row) => ({ id: row.id, transports: transportsOf(row.transports) })),
    userVerification: 'preferred',
  });
}

/** Whether `credential` is an assertion of one of the admin's passkeys over `challenge`; its counter moves on. */
export async function verifyPasskeyAssertion(db: DB, adminId: string, credential: AuthenticationResponseJSON, challenge: string, rp: RelyingParty, now: Date): Promise<boolean> {
  const stored = await db
    .selectFrom('admin_passkeys')
    .selectAll()
    .where('admin_id', '=', adminId)
    .where('id', '=', credential.id)
    .executeTakeFirst();
  if (!stored) return false;
  const verification = await verifyAuthenticationResponse({
    response: credential,
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    credential: { id: stored.id, publicKey: Buffer.from(stored.public_key, 'base64url'), counter: stored.counter, transports: transportsOf(stored.transports) },
    requireUserVerification: false,
  }).catch(() => undefined);
  if (!verification?.verified) return false;
  await db
    .updateTable('admin_passkeys')
    .set({ counter: verification.authenticationInfo.newCounter, last_used_at: now.toISOString() })
    .where('id', '=', stored.id)
    .execute();
  return true;
}

export async function renamePasskey(db: DB, adminId: string, id: string, name: string): Promise<boolean> {
  const result = await db.updateTable('admin_passkeys').set({ name }).where('admin_id', '=', adminId).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function removePasskey(db: DB, adminId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('admin_passkeys').where('admin_id', '=', adminId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
