/**
 * `npm run bench [name…]`: runs the benchmarks (all by default) and prints one `metric: value` line each.
 * Figures, not pass/fail: tests check behaviour, benchmarks measure.
 */
import { fsBench } from './fs';
import { pageWeight } from './page-weight';
import { reads } from './reads';
import { scale } from './scale';
import { server } from './server';
import { streamingMemory } from './streaming-memory';
import { transfer } from './transfer/index';
import { webdavBench } from './webdav';

const benchmarks: Record<string, () => Promise<void>> = {
  fs: fsBench,
  'page-weight': pageWeight,
  reads,
  scale,
  server,
  'streaming-memory': streamingMemory,
  transfer,
  webdav: webdavBench,
};

/**
 * Run when no name is given. `transfer` (a 1 GiB upload from the browser and again with the AWS SDK) takes
 * minutes at its default size: it runs by default only when BENCH_SIZE_MB is set, else when named.
 */
const byDefault = Object.keys(benchmarks).filter((name) => name !== 'transfer' || process.env.BENCH_SIZE_MB !== undefined);

const wanted = process.argv.slice(2);
for (const name of wanted.length > 0 ? wanted : byDefault) {
  const run = benchmarks[name];
  if (!run) {
    console.error(`unknown benchmark "${name}"; known: ${Object.keys(benchmarks).join(', ')}`);
    process.exit(1);
  }
  await run();
}
