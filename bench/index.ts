/**
 * `npm run bench [name…]`: runs the benchmarks (all by default) and prints one `metric: value` line each.
 * Figures, not pass/fail: tests check behaviour, benchmarks measure.
 */
import { pageWeight } from './page-weight';
import { streamingMemory } from './streaming-memory';

const benchmarks: Record<string, () => Promise<void>> = {
  'page-weight': pageWeight,
  'streaming-memory': streamingMemory,
};

const wanted = process.argv.slice(2);
for (const name of wanted.length > 0 ? wanted : Object.keys(benchmarks)) {
  const run = benchmarks[name];
  if (!run) {
    console.error(`unknown benchmark "${name}"; known: ${Object.keys(benchmarks).join(', ')}`);
    process.exit(1);
  }
  await run();
}
