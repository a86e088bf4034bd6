/**
 * `npm run bench [name]`: runs the benchmarks and prints one `metric: value` line each.
 * Benchmarks land with the features they measure (paste view size, streaming memory, transfer throughput).
 */
const benchmarks: Record<string, () => Promise<void>> = {};

const wanted = process.argv.slice(2);
const names = wanted.length > 0 ? wanted : Object.keys(benchmarks);
if (names.length === 0) console.log('no benchmarks yet');
for (const name of names) {
  const run = benchmarks[name];
  if (!run) {
    console.error(`unknown benchmark "${name}"; known: ${Object.keys(benchmarks).join(', ') || 'none'}`);
    process.exit(1);
  }
  await run();
}
