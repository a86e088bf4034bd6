/**
 * A WebDAV MOVE of 200 files between two storage configs, its server process killed (SIGKILL) midway: every file
 * is whole in the source or verified in the target, none lost (server/features/fs/move.ts deletes a source only once its
 * copy is verified). Another process on the same PostgreSQL and S3 looks afterwards.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { loginResponseSchema } from '../../contract/auth';
import { envelopeSchema } from '../../contract/envelope';
import { fsListingSchema } from '../../contract/fs';
import { instanceClient, startInstance, type Instance } from '../fixtures/instances';
import { freshSchema, type FreshSchema } from '../fixtures/postgres';
import { startS3rver, type RunningS3rver } from '../fixtures/s3rver';

const ADMIN_PASSWORD = 'a move cut short';
const FILES = 200;
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const nameOf = (n: number) => `f-${String(n).padStart(3, '0')}.bin`;

describe('kill -9 during a 200-file move between storages', () => {
  let schema: FreshSchema;
  let s3: RunningS3rver;
  let a: Instance;
  let b: Instance | undefined;
  let token: string;
  const contents = Array.from({ length: FILES }, (_, n) => randomBytes(2048 + n));

  const { call, seedTree } = instanceClient(() => token);

  beforeAll(async () => {
    const cluster = inject('postgresUrl');
    if (!cluster) throw new Error('the integration project provides a PostgreSQL cluster');
    [schema, s3] = await Promise.all([freshSchema(cluster), startS3rver()]);
    const env = { DATABASE_URL: schema.url, ENCRYPTION_KEY: randomBytes(32).toString('hex'), ADMIN_PASSWORD };
    a = await startInstance(env);
    b = await startInstance(env);
    const login = await fetch(`${a.origin}/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) });
    token = v.parse(envelopeSchema(loginResponseSchema), await login.json()).data.token;
    await seedTree(a, s3, contents, nameOf);
  });

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await s3?.stop();
    await schema?.drop();
  });

  it('leaves each file in the source or verified in the target', async () => {
    const other = b as Instance;
    const moving = fetch(`${a.origin}/dav/src/tree`, {
      method: 'MOVE',
      headers: { authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`, destination: `${a.origin}/dav/dst/tree` },
    }).catch(() => undefined);
    const movedSoFar = async () => {
      const res = await call(other, '/api/admin/fs/list?path=%2Fdst%2Ftree&refresh=true');
      return res.status === 200 ? v.parse(envelopeSchema(fsListingSchema), await res.json()).data.items.length : 0;
    };
    await vi.waitFor(async () => expect(await movedSoFar()).toBeGreaterThanOrEqual(20), { timeout: 30_000, interval: 20 });
    await a.kill();
    await moving;

    let inTarget = 0;
    for (let n = 0; n < FILES; n++) {
      const fromSource = await call(other, `/api/admin/fs/download?path=${encodeURIComponent(`/src/tree/${nameOf(n)}`)}`);
      const fromTarget = await call(other, `/api/admin/fs/download?path=${encodeURIComponent(`/dst/tree/${nameOf(n)}`)}`);
      const expected = sha(contents[n] as Uint8Array);
      const kept = fromSource.status === 200 && sha(new Uint8Array(await fromSource.arrayBuffer())) === expected;
      const moved = fromTarget.status === 200 && sha(new Uint8Array(await fromTarget.arrayBuffer())) === expected;
      if (!kept) inTarget += 1;
      expect({ file: nameOf(n), whole: kept || moved }).toEqual({ file: nameOf(n), whole: true });
    }
    // Killed midway: some files moved, not all.
    expect(inTarget).toBeGreaterThan(0);
    expect(inTarget).toBeLessThan(FILES);
  }, 180_000);
});
