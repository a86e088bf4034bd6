/**
 * How much work a bench does. `npm run bench -- --smoke` (bench/index.ts sets BENCH_SMOKE=1) runs each one small,
 * in seconds, as `npm test` does: that proves it still works and prints its lines, not its figures. Read when a bench
 * runs, not when its module loads, so that bench/index.ts can set it first.
 */
export const isSmokeRun = () => process.env.BENCH_SMOKE === '1';

/** `smoke` in a smoke run; else the environment's `variable` when it is given and set; else `full`. */
export function benchSize(full: number, smoke: number, variable?: string): number {
  if (isSmokeRun()) return smoke;
  const value = variable === undefined ? undefined : process.env[variable];
  return value === undefined ? full : Number(value);
}

/** A smoke run's large file, in MiB: just over one 5 MiB part, so that the multipart paths send two. */
export const SMOKE_FILE_MB = 6;
/** A smoke run's folder, in files (the many-small-files benches and listings). */
export const SMOKE_FILES = 5;
