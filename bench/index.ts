/**
 * `npm run bench [name…]`: runs the benchmarks (all by default) and prints one `metric: value` line each.
 * Figures, not pass/fail: tests check behaviour, benchmarks measure.
 */
import { batch } from './batch/index';
import { batchPicker } from './batch/picker';
import { copy } from './copy/index';
import { fsBench } from './fs';
import { pageWeight } from './page-weight';
import { reads } from './reads';
import { scale } from './scale';
import { server } from './server';
import { streamingMemory } from './streaming-memory';
import { transfer } from './transfer/index';
import { webdavBench } from './webdav';

const benchmarks: Record<string, () => Promise<void>> = {
  batch,
  'batch-picker': batchPicker,
  copy,
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
 * Run when no name is given. `transfer` (a 1 GiB upload from the browser and again with the AWS SDK) and `copy`
 * (712 MiB copied from a LOCAL to an S3 mount by both) take minutes at their default sizes: they run by default
 * only when BENCH_SIZE_MB is set, else when named.
 */
const slow = ['transfer', 'copy'];
/** `batch` and `batch-picker` (2,000 small files uploaded by the browser, and by a Node client, minutes) run only when named. */
const namedOnly = ['batch', 'batch-picker'];
const byDefault = Object.keys(benchmarks).filter(
  (name) => !namedOnly.includes(name) && (!slow.includes(name) || process.env.BENCH_SIZE_MB !== undefined),
);

const wanted = process.argv.slice(2);
for (const name of wanted.length > 0 ? wanted : byDefault) {
  const run = benchmarks[name];
  if (!run) {
    console.error(`unknown benchmark "${name}"; known: ${Object.keys(benchmarks).join(', ')}`);
    process.exit(1);
  }
  await run();
}
