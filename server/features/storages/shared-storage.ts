import { ConfigError, type ServerConfig } from '../../config';
import type { DB } from '../../db/database';

/** Whether this instance may use (and create) LOCAL storage: always on SQLite; on PostgreSQL only with a shared DATA_DIR. */
export const localStorageAllowed = (config: Pick<ServerConfig, 'databaseUrl' | 'sharedDataDir'>) =>
  config.databaseUrl === undefined || config.sharedDataDir;

/**
 * LOCAL storage keeps the bytes on this machine's disk under DATA_DIR. With DATABASE_URL several instances may
 * serve one database: a file uploaded through one would be missing on all the others, so the server refuses to
 * start while a LOCAL storage config exists, unless DATA_DIR is declared shared (the same network folder on every
 * instance).
 */
export async function assertStorageShared(db: DB, config: ServerConfig): Promise<void> {
  if (localStorageAllowed(config)) return;
  const local = await db.selectFrom('storage_configs').select('name').where('storage_type', '=', 'LOCAL').orderBy('name').execute();
  if (local.length === 0) return;
  const names = local.map((row) => `"${row.name}"`).join(', ');
  throw new ConfigError(
    `Refusing to start: DATABASE_URL is set, so several instances may share this database, but the LOCAL storage ` +
      `config ${names} keeps files on one machine's disk (DATA_DIR), where the other instances cannot read them.\n` +
      `  - move those files to S3 storage and delete the LOCAL config, or\n` +
      `  - set SHARED_DATA_DIR=1 if DATA_DIR is one shared folder (e.g. NFS) mounted on every instance.`,
  );
}
