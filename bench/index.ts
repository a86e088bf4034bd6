/**
 * `npm run bench [--smoke] [name…]`: runs the benchmarks (a default set, or those named) and prints one
 * `metric: value` line each. Figures, not pass/fail: tests check behaviour, benchmarks measure. `--smoke` runs every
 * bench small, as `npm test` does, to prove that each still runs and prints its lines.
 */
import { buildIfStale } from '../scripts/build-if-stale.mjs';
import { postgresAvailable } from '../tests/fixtures/postgres';
import { batch } from './batch/index';
import { batchPicker } from './batch/picker';
import { bigFolder } from './big-folder';
import { copy } from './copy/index';
import { driversBench } from './drivers/index';
import { fsBench } from './fs';
import { pageWeight } from './page-weight';
import { reads } from './reads';
import { scale } from './scale';
import { server } from './server';
import { searchBench } from './search/index';
import { shareSearch } from './share-search';
import { serverCopy } from './server-copy/index';
import { streamingMemory } from './streaming-memory';
import { transfer } from './transfer/index';
import { thumbnails } from './thumbnails';
import { webdavBench } from './webdav';

const benchmarks: Record<string, () => Promise<void>> = {
  batch,
  'batch-picker': batchPicker,
  'big-folder': bigFolder,
  copy,
  drivers: driversBench,
  fs: fsBench,
  'page-weight': pageWeight,
  reads,
  scale,
  search: searchBench,
  server,
  'server-copy': serverCopy,
  'share-search': shareSearch,
  'streaming-memory': streamingMemory,
  thumbnails,
  transfer,
  webdav: webdavBench,
};

/**
 * Run when no name is given. `transfer` (a 1 GiB upload from the browser and again with the AWS SDK) and `copy`
 * (712 MiB copied from a LOCAL to an S3 mount by both) take minutes at their default sizes: they run by default
 * only when BENCH_SIZE_MB is set, else when named.
 */
const slow = ['transfer', 'copy'];
/**
 * `batch` and `batch-picker` (2,000 small files uploaded by the browser, and by a Node client, minutes),
 * `server-copy` (a 2 GiB file and 2,000 small ones copied three ways by a server's copy jobs and by the SDK) and
 * `search` (100,000 files indexed and searched on SQLite and PostgreSQL) and `thumbnails` (500 photos of 12
 * megapixels) and `big-folder` (folders of 10,000 and 100,000 files in the explorer) run only when named.
 */
const namedOnly = ['batch', 'batch-picker', 'big-folder', 'server-copy', 'search', 'thumbnails'];
const byDefault = Object.keys(benchmarks).filter(
  (name) => !namedOnly.includes(name) && (!slow.includes(name) || process.env.BENCH_SIZE_MB !== undefined),
);

/** What a bench prints on stdout: `name: value` lines, none of them a number gone wrong. */
const FIGURE_LINE = /^[a-z0-9_]+: (?!.*\b(?:NaN|undefined|Infinity)\b)\S/;

/** Runs a bench and fails unless it printed at least one line and only figure lines. */
async function runChecked(name: string, run: () => Promise<void>) {
  const printed: string[] = [];
  const log = console.log;
  console.log = (...values: unknown[]) => {
    printed.push(values.join(' '));
    log(...values);
  };
  try {
    await run();
  } finally {
    console.log = log;
  }
  const wrong = printed.filter((line) => !FIGURE_LINE.test(line));
  if (printed.length === 0 || wrong.length > 0) {
    throw new Error(`bench ${name} printed ${printed.length === 0 ? 'no figure' : `lines that are not figures: ${wrong.join(' | ')}`}`);
  }
}

// `--smoke`: every bench (or those named), each at a size that takes seconds (bench/size.ts), its lines checked.
const smoke = process.argv.includes('--smoke');
if (smoke) process.env.BENCH_SMOKE = '1';
const wanted = process.argv.slice(2).filter((arg) => arg !== '--smoke');
const unknown = wanted.filter((name) => !Object.hasOwn(benchmarks, name));
if (unknown.length > 0) {
  console.error(`unknown benchmark "${unknown.join('", "')}"; known: ${Object.keys(benchmarks).join(', ')}`);
  process.exit(1);
}
// The build first, made again when a source is newer: most benches measure the built server, and a stale build would
// measure old code without a word. What it prints is not a bench's line.
buildIfStale();
for (const name of wanted.length > 0 ? wanted : smoke ? Object.keys(benchmarks) : byDefault) {
  const run = benchmarks[name] as () => Promise<void>;
  if (!smoke) {
    await run();
    continue;
  }
  if (name === 'scale' && !postgresAvailable()) {
    // As `npm test` does without PostgreSQL: said, not failed (a full run fails instead).
    console.error('▷ bench scale skipped: PostgreSQL is not installed (apt-get install postgresql)');
    continue;
  }
  const started = performance.now();
  console.error(`▶ bench ${name} (smoke)`);
  await runChecked(name, run);
  console.error(`✔ bench ${name}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
