import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { startInstance, type Instance } from '../tests/fixtures/instances';
import { freshSchema, startPostgresCluster } from '../tests/fixtures/postgres';
import { benchSize } from './size';

const CONNECTIONS = 50;
export const ADMIN_PASSWORD = 'bench password';

/** Creates a paste without a view limit through `instance`; answers its read path. */
export async function pastePath(instance: Instance): Promise<string> {
  const login = await fetch(`${instance.origin}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  const { data } = (await login.json()) as { data: { token: string } };
  const created = await fetch(`${instance.origin}/api/paste`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${data.token}` },
    body: JSON.stringify({ content: 'A paste read over and over. '.repeat(40) }),
  });
  const paste = (await created.json()) as { data: { slug: string } };
  return `/api/paste/${paste.data.slug}`;
}

/** 50 connections spread round-robin over `urls`, every answer a 200: requests a second, and answered in all. */
export async function load(urls: string[], seconds: number): Promise<{ perSecond: number; total: number }> {
  // autocannon spreads its connections over an array of URLs; its typings know only one.
  const result = await autocannon({ url: urls as unknown as string, connections: CONNECTIONS, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} answers were not 2xx, ${result.errors} errors`);
  return { perSecond: Math.round(result.requests.average), total: result.requests.total };
}

/** Requests per second with 50 connections spread round-robin over `urls`, every answer a 200. */
export async function requestsPerSecond(urls: string[], seconds: number): Promise<number> {
  return (await load(urls, seconds)).perSecond;
}

/** Paste reads per second over the instances. */
async function readsPerSecond(instances: Instance[]): Promise<number> {
  const path = await pastePath(instances[0] as Instance);
  // Seconds of load per setup.
  return requestsPerSecond(instances.map((instance) => `${instance.origin}${path}`), benchSize(10, 1, 'BENCH_SCALE_SECONDS'));
}

async function measure(count: number, env: Record<string, string>): Promise<number> {
  const instances = await Promise.all(Array.from({ length: count }, () => startInstance({ ADMIN_PASSWORD, ...env })));
  try {
    return await readsPerSecond(instances);
  } finally {
    await Promise.all(instances.map((instance) => instance.stop()));
  }
}

/**
 * `reads_per_s_{sqlite,pg_1,pg_3}`: GET /api/paste/{slug} of a paste without a view limit (every read counts a view
 * in memory, written about once a second), wrk-style with 50 connections for 10 s, against one instance on SQLite, one on PostgreSQL and
 * three on one PostgreSQL (a throw-away cluster). Every process shares this machine's cores, load generator included.
 */
export async function scale() {
  console.log(`reads_per_s_sqlite: ${await measure(1, {})}`);
  const cluster = await startPostgresCluster();
  try {
    for (const count of [1, 3]) {
      const schema = await freshSchema(cluster.url);
      try {
        const env = { DATABASE_URL: schema.url, ENCRYPTION_KEY: randomBytes(32).toString('hex') };
        console.log(`reads_per_s_pg_${count}: ${await measure(count, env)}`);
      } finally {
        await schema.drop();
      }
    }
  } finally {
    cluster.stop();
  }
}
