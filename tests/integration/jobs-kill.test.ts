/**
 * A server job copying 300 files between two storages, the instance running it killed (SIGKILL) midway: the other
 * instance on the same PostgreSQL takes the job over once its lease lapses and finishes it, every byte exact, no
 * multipart upload left open (server/features/jobs/).
 */
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { loginResponseSchema } from '../../contract/auth';
import { envelopeSchema } from '../../contract/envelope';
import { jobSchema, type Job } from '../../contract/jobs';
import { instanceClient, startInstance, type Instance } from '../fixtures/instances';
import { freshSchema, type FreshSchema } from '../fixtures/postgres';
import { startS3rver, type RunningS3rver } from '../fixtures/s3rver';

const ADMIN_PASSWORD = 'a job cut short';
const FILES = 300;
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const nameOf = (n: number) => `f-${String(n).padStart(3, '0')}.bin`;
const jobsInstanceOf = (instance: Instance) => /"jobsInstance":"([0-9a-f-]{36})"/.exec(instance.output())?.[1];

describe('kill -9 of the instance running a server job', () => {
  let schema: FreshSchema;
  let s3: RunningS3rver;
  let a: Instance;
  let b: Instance;
  let token: string;
  const contents = Array.from({ length: FILES }, (_, n) => randomBytes(4096 + n));

  const { call, ok, seedTree } = instanceClient(() => token);

  beforeAll(async () => {
    const cluster = inject('postgresUrl');
    if (!cluster) throw new Error('the integration project provides a PostgreSQL cluster');
    [schema, s3] = await Promise.all([freshSchema(cluster), startS3rver()]);
    const env = { DATABASE_URL: schema.url, ENCRYPTION_KEY: randomBytes(32).toString('hex'), ADMIN_PASSWORD, JOB_LEASE_SECONDS: '3' };
    [a, b] = await Promise.all([startInstance(env), startInstance(env)]);
    const login = await fetch(`${a.origin}/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) });
    token = v.parse(envelopeSchema(loginResponseSchema), await login.json()).data.token;
    await seedTree(a, s3, contents, nameOf);
  }, 180_000);

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await s3?.stop();
    await schema?.drop();
  });

  it('is taken over by the other instance and finished, byte for byte', async () => {
    const job = await ok(call(a, '/api/admin/jobs', { json: { type: 'copy', items: [{ sourcePath: '/src/tree', targetPath: '/dst/tree' }] } }), jobSchema, 201);
    // Which instance holds it: the lease in its record names it.
    const database = new pg.Client({ connectionString: schema.url });
    await database.connect();
    let owner: string | undefined;
    try {
      await vi.waitFor(
        async () => {
          const { rows } = await database.query<{ owner_instance: string | null; items_done: number }>('select owner_instance, items_done from jobs where id = $1', [job.id]);
          owner = rows[0]?.owner_instance ?? undefined;
          expect(owner).toBeDefined();
          expect(Number(rows[0]?.items_done)).toBeGreaterThan(0);
        },
        { timeout: 60_000, interval: 20 },
      );
    } finally {
      await database.end();
    }
    const [running, other] = owner === jobsInstanceOf(a) ? [a, b] : [b, a];
    expect(owner).toBe(jobsInstanceOf(running));
    await running.kill();
    const cut = await ok(call(other, `/api/admin/jobs/${job.id}`), jobSchema);
    expect(cut.items.done).toBeLessThan(FILES);

    let ended: Job | undefined;
    await vi.waitFor(
      async () => {
        ended = await ok(call(other, `/api/admin/jobs/${job.id}`), jobSchema);
        expect(ended.status).toBe('completed');
      },
      { timeout: 150_000, interval: 200 },
    );
    expect(ended?.items).toEqual({ total: FILES, done: FILES, skipped: 0, failed: 0 });
    for (let n = 0; n < FILES; n++) {
      const res = await call(other, `/api/admin/fs/download?path=${encodeURIComponent(`/dst/tree/${nameOf(n)}`)}`);
      expect(res.status).toBe(200);
      expect(sha(new Uint8Array(await res.arrayBuffer())), nameOf(n)).toBe(sha(contents[n] as Uint8Array));
    }
    expect(await s3.pendingUploads()).toEqual([]);
  }, 300_000);
});
