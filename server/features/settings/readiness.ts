import { sql } from 'kysely';
import type { ReadinessChecks } from '../../../contract/system';
import type { AppDeps } from '../../context';
import { ApiError } from '../../errors';
import { log } from '../../observability/log';
import { describeError } from '../../storage/reason';
import { driverFor } from '../../storage/registry';

/** A check that does not answer within this long has failed: a load balancer's probe must not hang on it. */
const CHECK_TIMEOUT_MS = 5000;

const draining = new WeakSet<object>();

/** From now on the app is stopping (SIGTERM): readiness answers 503 so that a load balancer sends no more. */
export function startDraining(deps: AppDeps): void {
  draining.add(deps);
}

/** The database answers a trivial query, and the default storage a cheap call; each failure logged, not told. */
async function runChecks(deps: AppDeps): Promise<ReadinessChecks> {
  const check = async (name: string, probe: () => Promise<unknown>): Promise<'ok' | 'failed' | 'none'> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
    });
    try {
      return (await Promise.race([probe(), timeout])) === 'none' ? 'none' : 'ok';
    } catch (error) {
      log.warn(`Readiness: the ${name} check failed: ${describeError(error)}`);
      return 'failed';
    } finally {
      clearTimeout(timer);
    }
  };
  const [database, storage] = await Promise.all([
    check('database', () => sql`select 1`.execute(deps.db)),
    check('storage', async () => {
      const config = await deps.db.selectFrom('storage_configs').selectAll().where('is_default', '=', 1).executeTakeFirst();
      // A fresh install on PostgreSQL has no storage until the admin adds one: nothing to check, still ready.
      if (!config) return 'none';
      await driverFor(deps, config).checkAccess();
    }),
  ]);
  return { database, storage };
}

/** Every check passed and the app is not stopping; else a 503 saying which check failed, or that it is stopping. */
export async function readiness(deps: AppDeps): Promise<{ status: 'ready'; checks: ReadinessChecks }> {
  // Stopping: no check is worth running (the database closes soon), and the answer must be quick.
  if (draining.has(deps)) throw new ApiError(503, 'shutting_down', {}, { draining: true });
  const checks = await runChecks(deps);
  if (checks.database === 'failed' || checks.storage === 'failed') throw new ApiError(503, 'not_ready', {}, { checks, draining: false });
  return { status: 'ready', checks };
}
