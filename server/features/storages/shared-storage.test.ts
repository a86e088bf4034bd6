import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../tests/fixtures/test-app';
import { ConfigError, readConfig } from '../../config';
import { assertStorageShared, localStorageAllowed } from './shared-storage';

describe('LOCAL storage with several instances', () => {
  const t = useTestApp({ login: false });
  const url = 'postgres://clip:s3cret-pw@db.example.com/clipstash';
  const key = randomBytes(32).toString('hex');

  it('is allowed on SQLite, and on PostgreSQL only with SHARED_DATA_DIR=1', async () => {
    const sqlite = readConfig({});
    const shared = readConfig({ DATABASE_URL: url, SHARED_DATA_DIR: '1' });
    expect(localStorageAllowed(sqlite)).toBe(true);
    expect(localStorageAllowed(shared)).toBe(true);
    await expect(assertStorageShared(t.db, sqlite)).resolves.toBeUndefined();
    await expect(assertStorageShared(t.db, shared)).resolves.toBeUndefined();
  });

  it('keeps the server from starting on PostgreSQL otherwise, naming the config and the ways out, not the URL', async () => {
    const config = readConfig({ DATABASE_URL: url, ENCRYPTION_KEY: key });
    expect(localStorageAllowed(config)).toBe(false);
    const error = await assertStorageShared(t.db, config).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/^Refusing to start: DATABASE_URL is set/);
    expect(message).toContain('LOCAL storage config "Local storage"');
    expect(message).toContain('SHARED_DATA_DIR=1');
    expect(message).not.toContain('s3cret-pw');
  });

  it('lets it start once no LOCAL config is left', async () => {
    const config = readConfig({ DATABASE_URL: url, ENCRYPTION_KEY: key });
    await t.db.deleteFrom('mounts').execute();
    await t.db.deleteFrom('storage_configs').where('storage_type', '=', 'LOCAL').execute();
    await expect(assertStorageShared(t.db, config)).resolves.toBeUndefined();
  });
});
