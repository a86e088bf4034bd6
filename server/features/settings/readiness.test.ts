import { rmSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readinessSchema } from '../../../contract/system';
import { expectError, expectOk, useTestApp } from '../../../tests/fixtures/test-app';
import { localRootOf } from '../../storage/registry';
import { startDraining } from './readiness';

describe('GET /api/health/ready', () => {
  const t = useTestApp({ login: false });

  it('answers 200 with each check when the database and the default storage answer', async () => {
    const ready = await expectOk(await t.request('/api/health/ready'), readinessSchema);
    expect(ready).toEqual({ status: 'ready', checks: { database: 'ok', storage: 'ok' } });
  });

  it('answers 503 naming the storage when it cannot be reached, and 200 again once it can', async () => {
    const local = await t.db.selectFrom('storage_configs').select('id').where('is_default', '=', 1).executeTakeFirstOrThrow();
    const root = localRootOf(t.deps, local.id);
    // A file where the storage's folder should be: nothing can be written below it.
    rmSync(root, { recursive: true, force: true });
    writeFileSync(root, 'not a folder');
    try {
      const body = await expectError(await t.request('/api/health/ready'), 503);
      expect(body.data).toMatchObject({ error: 'unavailable', checks: { database: 'ok', storage: 'failed' }, draining: false });
      expect(body.message).toBe('The server is not ready: a check failed');
      // The client learns which check failed, not where or why.
      expect(JSON.stringify(body)).not.toMatch(/ENOTDIR|EEXIST|\/tmp|storage\//);
    } finally {
      rmSync(root, { force: true });
    }
    await expectOk(await t.request('/api/health/ready'), readinessSchema);
  });
});

describe('GET /api/health/ready with the database gone', () => {
  const t = useTestApp({ login: false });

  it('answers 503 naming the database, while /api/health stays 200', async () => {
    await t.db.destroy();
    const body = await expectError(await t.request('/api/health/ready', { headers: { 'accept-language': 'zh-CN' } }), 503);
    expect(body.data).toMatchObject({ error: 'unavailable', checks: { database: 'failed' } });
    expect(body.message).toBe('服务器尚未就绪：有检查未通过');
    expect((await t.request('/api/health')).status).toBe(200);
  });
});

describe('GET /api/health/ready while draining', () => {
  const t = useTestApp({ login: false });

  it('answers 503 once the server stops, while /api/health stays 200', async () => {
    await expectOk(await t.request('/api/health/ready'), readinessSchema);
    startDraining(t.deps);
    const body = await expectError(await t.request('/api/health/ready'), 503);
    expect(body).toMatchObject({ message: 'The server is shutting down', data: { error: 'unavailable', draining: true } });
    expect((await t.request('/api/health')).status).toBe(200);
  });
});
