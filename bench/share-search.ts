import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type DB } from '../server/db/database';
import { dialectOf } from '../server/db/dialect';
import { searchShares } from '../server/features/search/share-search';
import { freshSchema, postgresAvailable, startPostgresCluster } from '../tests/fixtures/postgres';
import { benchSize } from './size';

const LATIN_SYLLABLES = ['ka', 'lo', 'mer', 'tin', 'sa', 'vor', 'el', 'dun', 'pri', 'sho', 'ga', 'bel', 'ix', 'nor', 'ta', 'qua'];
const CHINESE_WORDS = ['报告', '会议', '纪要', '预算', '合同', '项目', '季度', '年度', '客户', '设计', '测试', '发布', '计划', '财务', '市场', '总结'];
const QUERIES = 200;
const WARM_UP = 20;

/** A fixed-seed generator (mulberry32): the same pastes and queries every run. */
function seeded(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return { next, pick };
}

function latinWord(random: ReturnType<typeof seeded>): string {
  const syllables = 2 + Math.floor(random.next() * 3);
  return Array.from({ length: syllables }, () => random.pick(LATIN_SYLLABLES)).join('');
}

/** Pastes of 30–80 words, Latin and Chinese mixed, a third with a remark, one in twenty end-to-end encrypted. */
async function fillPastes(db: DB, count: number) {
  const random = seeded(41);
  const start = Date.parse('2030-01-01T00:00:00.000Z');
  const rows = Array.from({ length: count }, (_, i) => {
    const words = Array.from({ length: 30 + Math.floor(random.next() * 50) }, () => (random.next() < 0.3 ? random.pick(CHINESE_WORDS) : latinWord(random)));
    const encrypted = random.next() < 0.05;
    const at = new Date(start + i * 1000).toISOString();
    return {
      id: `p${i}`,
      slug: `s${i.toString(36)}${latinWord(random)}`,
      content: encrypted ? randomBytes(200).toString('base64url') : words.join(' '),
      encryption: encrypted ? ('aes-256-gcm' as const) : null,
      remark: random.next() < 0.33 ? `${random.pick(CHINESE_WORDS)} ${latinWord(random)}` : null,
      max_views: 0,
      created_by: 'admin',
      created_at: at,
      updated_at: at,
    };
  });
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 500) await trx.insertInto('pastes').values(rows.slice(i, i + 500)).execute();
  });
}

/** Whole Latin words, Latin substrings, Chinese words of two characters and of four, and slug beginnings. */
const QUERY_KINDS = ['latin word', 'latin substring', 'chinese 2', 'chinese 4', 'slug start'] as const;

function queries(): { kind: (typeof QUERY_KINDS)[number]; q: string }[] {
  const random = seeded(7);
  const make = {
    'latin word': () => latinWord(random),
    'latin substring': () => latinWord(random).slice(1, 4),
    'chinese 2': () => random.pick(CHINESE_WORDS),
    'chinese 4': () => random.pick(CHINESE_WORDS) + random.pick(CHINESE_WORDS),
    'slug start': () => `s${Math.floor(random.next() * 1000).toString(36)}`,
  };
  return Array.from({ length: QUERIES + WARM_UP }, (_, i) => {
    const kind = QUERY_KINDS[i % QUERY_KINDS.length] ?? 'latin word';
    return { kind, q: make[kind]() };
  });
}

/** The `fraction` quantile of some timings (ms), as a figure. */
function quantile(times: number[], fraction: number): string {
  const sorted = [...times].sort((a, b) => a - b);
  return (sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0).toFixed(1);
}

/** p50 and p95 of the admin's search (20 of each kind, newest first) over `count` pastes, in ms. */
async function timings(db: DB, count: number) {
  await fillPastes(db, count);
  // What autovacuum would have done by the time anyone searches: statistics, and GIN's pending list merged.
  if (dialectOf(db) === 'postgres') await sql`vacuum analyze pastes`.execute(db);
  const deps = { db, now: () => new Date('2030-06-01T00:00:00.000Z') };
  const times: { kind: string; ms: number }[] = [];
  let found = 0;
  for (const [i, { kind, q }] of queries().entries()) {
    const started = performance.now();
    const result = await searchShares(deps, { all: true, pastes: true, files: true }, q, 20);
    if (i >= WARM_UP) times.push({ kind, ms: performance.now() - started });
    found += result.pastes.length;
  }
  const all = times.map((time) => time.ms);
  const byKind = QUERY_KINDS.map((kind) => `${kind} ${quantile(times.filter((time) => time.kind === kind).map((time) => time.ms), 0.95)}`);
  console.error(`share-search ${dialectOf(db)}: ${count} pastes, ${QUERIES} queries, ${found} results; p95 ms by kind: ${byKind.join(', ')}`);
  return { p50: quantile(all, 0.5), p95: quantile(all, 0.95) };
}

/**
 * `share_search_{p50,p95}_ms` (SQLite) and `share_search_pg_{p50,p95}_ms` (PostgreSQL, a throw-away cluster; skipped
 * without it): the admin's share search, in process, over 10,000 pastes (BENCH_SHARE_SEARCH_PASTES).
 */
export async function shareSearch() {
  const count = benchSize(10_000, 200, 'BENCH_SHARE_SEARCH_PASTES');
  const dataDir = mkdtempSync(join(tmpdir(), 'clipstash-share-search-'));
  try {
    const db = await openDatabase(dataDir);
    try {
      const { p50, p95 } = await timings(db, count);
      console.log(`share_search_p50_ms: ${p50}`);
      console.log(`share_search_p95_ms: ${p95}`);
    } finally {
      await db.destroy();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (!postgresAvailable()) {
    console.error('share-search: PostgreSQL is not installed, its lines are skipped');
    return;
  }
  const cluster = await startPostgresCluster();
  try {
    const schema = await freshSchema(cluster.url);
    const db = await openDatabase(dataDir, schema.url);
    try {
      const { p50, p95 } = await timings(db, count);
      console.log(`share_search_pg_p50_ms: ${p50}`);
      console.log(`share_search_pg_p95_ms: ${p95}`);
    } finally {
      await db.destroy();
      await schema.drop();
    }
  } finally {
    cluster.stop();
  }
}
