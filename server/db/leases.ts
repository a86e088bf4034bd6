import { randomUUID } from 'node:crypto';
import type { DB } from './database';

/** This process, as a lease holder: two instances never share it, a restart is a new holder. */
export const INSTANCE_ID = randomUUID();

/**
 * Takes or renews the lease `name` for `ttlMs` and answers whether this holder has it now. One statement: the row is
 * inserted when missing, or taken over when its holder let it expire (or renewed when it is ours); on both dialects
 * the upsert's WHERE is checked against the row as committed, so two instances never both win.
 */
export async function holdLease(db: DB, name: string, now: Date, ttlMs: number, holder: string = INSTANCE_ID): Promise<boolean> {
  const expiresAt = new Date(now.getTime() + ttlMs).toISOString();
  const result = await db
    .insertInto('leases')
    .values({ name, holder, expires_at: expiresAt })
    .onConflict((conflict) =>
      conflict
        .column('name')
        .doUpdateSet({ holder, expires_at: expiresAt })
        .where((eb) => eb.or([eb('leases.holder', '=', holder), eb('leases.expires_at', '<=', now.toISOString())])),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Gives the lease up (a clean shutdown), so another instance need not wait for it to expire. */
export async function releaseLease(db: DB, name: string, holder: string = INSTANCE_ID): Promise<void> {
  await db.deleteFrom('leases').where('name', '=', name).where('holder', '=', holder).execute();
}
