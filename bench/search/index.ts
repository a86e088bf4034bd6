import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { MountIndex } from '../../contract/search';
import { sqlitePath } from '../../server/db/database';
import { adminToken, localStorageRoot, startServer, type RunningServer } from '../../tests/e2e/harness';
import { freshSchema, postgresAvailable, startPostgresCluster } from '../../tests/fixtures/postgres';
import { MiB } from '../measure';
import { processCpuSeconds } from '../cpu-time';
import { residentBytes } from '../processes';
import { benchSize } from '../size';
import { benchQueries, benchTree, queryKind, type BenchTree } from './names';

const note = (text: string) => process.stderr.write(`[search] ${text}\n`);
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
/** The build's end and the server's RSS are read this often: each look counts the index's entries, which is work too. */
const POLL_MS = 250;

/** CPU time (user + system) a process has used, in ms. */
const cpuMs = (pid: number) => processCpuSeconds(pid) * 1000;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

function writeTree(root: string, tree: BenchTree) {
  for (const [folder, files] of tree.folders) {
    mkdirSync(join(root, folder), { recursive: true });
    for (const file of files) writeFileSync(join(root, folder, file), 'x');
  }
}

class Api {
  constructor(
    readonly server: RunningServer,
    readonly token: string,
  ) {}

  async call<T>(path: string, init: RequestInit = {}): Promise<T> {
    const answer = await fetch(`${this.server.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json', ...init.headers },
    });
    if (!answer.ok) throw new Error(`${init.method ?? 'GET'} ${path} answered ${answer.status}: ${await answer.text()}`);
    return ((await answer.json()) as { data: T }).data;
  }

  localIndex = async () => {
    const found = (await this.call<MountIndex[]>('/api/admin/fs/index')).find((index) => index.mountPath === '/local');
    if (!found) throw new Error('no index of /local');
    return found;
  };
}

interface Figures {
  buildS: number;
  rssMb: number;
  p50: number;
  p95: number;
  /** The server process's CPU time per query: what a query costs whatever else the machine runs (SQLite's work included, PostgreSQL's not). */
  serverCpuMs: number;
  indexBytes: number;
}

/**
 * One server on a database: the tree moved into its LOCAL storage, a rebuild of `/local` timed to its end (the
 * server's RSS sampled meanwhile), then the queries through HTTP one after another.
 */
async function measure(tree: BenchTree, dataDir: string, treeDir: string, env: Record<string, string>, indexBytes: (api: Api) => Promise<number>): Promise<Figures> {
  const server = await startServer(env, dataDir);
  try {
    const api = new Api(server, await adminToken(server.url));
    const storage = await localStorageRoot(server, api.token);
    // The server's first start already indexed its empty storage; the tree arrives behind its back.
    rmSync(storage, { recursive: true, force: true });
    mkdirSync(dirname(storage), { recursive: true });
    renameSync(treeDir, storage);
    const mountId = (await api.localIndex()).mountId;

    let peak = 0;
    const began = performance.now();
    await api.call('/api/admin/fs/index/rebuild', { method: 'POST', body: JSON.stringify({ mountId }) });
    let index = await api.localIndex();
    while (index.state !== 'complete') {
      peak = Math.max(peak, residentBytes(server.pid));
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      index = await api.localIndex();
    }
    const buildS = (performance.now() - began) / 1000;
    const expected = tree.files + tree.folders.size;
    if (index.entries !== expected) throw new Error(`the index holds ${index.entries} entries, the tree ${expected}`);
    note(`built ${index.entries} entries in ${round(buildS)} s`);

    const times: number[] = [];
    const byKind = new Map<string, number[]>();
    const cpuBefore = cpuMs(server.pid);
    let hits = 0;
    for (const [index, q] of benchQueries(benchSize(200, 40)).entries()) {
      const start = performance.now();
      const found = await api.call<{ items: unknown[] }>(`/api/admin/fs/search?${new URLSearchParams({ q, limit: '50' })}`);
      const took = performance.now() - start;
      times.push(took);
      const kind = queryKind(q, index);
      byKind.set(kind, [...(byKind.get(kind) ?? []), took]);
      hits += found.items.length;
    }
    const serverCpuMs = (cpuMs(server.pid) - cpuBefore) / times.length;
    times.sort((a, b) => a - b);
    const kindP95 = [...byKind].map(([kind, taken]) => `${kind} ${round(percentile(taken.sort((a, b) => a - b), 95))}`);
    note(`p95 ms by kind: ${kindP95.join(', ')}`);
    note(`${times.length} queries, ${hits} hits, slowest ${round(times.at(-1) ?? 0)} ms; load average ${loadavg().map((load) => round(load, 1)).join(' ')}`);
    renameSync(storage, treeDir);
    return { buildS, rssMb: peak / MiB, p50: percentile(times, 50), p95: percentile(times, 95), serverCpuMs, indexBytes: await indexBytes(api) };
  } finally {
    await server.stop();
  }
}

function print(name: string, figures: Figures, files: number) {
  console.log(`search_build_s_${name}: ${round(figures.buildS)}`);
  console.log(`search_p50_ms_${name}: ${round(figures.p50)}`);
  console.log(`search_p95_ms_${name}: ${round(figures.p95)}`);
  console.log(`search_server_cpu_ms_per_query_${name}: ${round(figures.serverCpuMs)}`);
  console.log(`search_index_bytes_per_file_${name}: ${Math.round(figures.indexBytes / files)}`);
  console.log(`search_build_rss_mb_${name}: ${round(figures.rssMb, 1)}`);
}

/** The index's tables and indexes on SQLite (the FTS5 table's shadow tables included), from the `dbstat` table. */
function sqliteIndexBytes(dataDir: string): number {
  const db = new Database(sqlitePath(dataDir), { readonly: true });
  try {
    const row = db.prepare("select sum(pgsize) as bytes from dbstat where name like '%fs\\_index%' escape '\\'").get() as { bytes: number };
    return row.bytes;
  } finally {
    db.close();
  }
}

async function runSql(url: string, text: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * `npm run bench -- search`: a LOCAL mount of 100,000 files in 1,000 folders (names from a fixed seed, Latin and
 * Chinese), its index built through a production server and searched over HTTP, on SQLite and on PostgreSQL.
 */
export async function searchBench() {
  const folders = benchSize(1000, 20);
  const tree = benchTree(folders, benchSize(100, 100));
  const work = mkdtempSync(join(tmpdir(), 'clipstash-bench-search-'));
  try {
    const treeDir = join(work, 'tree');
    const started = performance.now();
    writeTree(treeDir, tree);
    note(`${tree.files} files in ${tree.folders.size} folders written in ${round((performance.now() - started) / 1000)} s`);

    const sqliteDir = join(work, 'sqlite');
    print('sqlite', await measure(tree, sqliteDir, treeDir, {}, async () => sqliteIndexBytes(sqliteDir)), tree.files);

    if (!postgresAvailable()) {
      note('PostgreSQL is not installed: its figures are skipped (apt-get install postgresql)');
      return;
    }
    const cluster = await startPostgresCluster();
    try {
      // A database whose LC_CTYPE knows Chinese letters, as a production one in a UTF-8 locale does: pg_trgm then
      // indexes them (the test cluster's C locale treats them as spaces).
      await runSql(cluster.url, "create database bench template template0 encoding 'UTF8' lc_collate 'C' lc_ctype 'C.UTF-8'");
      const url = cluster.url.replace(/\/postgres$/, '/bench');
      await runSql(url, 'create extension if not exists pg_trgm schema public');
      const schema = await freshSchema(url);
      const pool = new pg.Pool({ connectionString: url, max: 1 });
      try {
        const env = { DATABASE_URL: schema.url, ENCRYPTION_KEY: randomBytes(32).toString('hex'), SHARED_DATA_DIR: '1' };
        const indexBytes = async () => {
          const result = await pool.query<{ bytes: string }>(
            `select sum(pg_total_relation_size(c.oid)) as bytes from pg_class c join pg_namespace n on n.oid = c.relnamespace
             where n.nspname = $1 and c.relkind = 'r' and c.relname like 'fs\\_index\\_%'`,
            [schema.schema],
          );
          return Number(result.rows[0]?.bytes ?? 0);
        };
        print('pg', await measure(tree, join(work, 'pg'), treeDir, env, indexBytes), tree.files);
      } finally {
        await pool.end();
        await schema.drop();
      }
    } finally {
      cluster.stop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
