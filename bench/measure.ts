import type { RunningServer } from '../tests/e2e/harness';
import { residentBytes } from './processes';

export const MiB = 1024 * 1024;

/** The server process's resident set size in MiB. */
const rssMb = (pid: number) => residentBytes(pid) / MiB;

/** Samples the server's RSS every 50 ms while `work` runs: the peak above the RSS just before it. */
export async function growthDuring<T>(server: RunningServer, work: () => Promise<T>): Promise<{ result: T; growthMb: number }> {
  global.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 500));
  const baseline = rssMb(server.pid);
  let peak = baseline;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMb(server.pid));
  }, 50);
  try {
    const result = await work();
    peak = Math.max(peak, rssMb(server.pid));
    return { result, growthMb: Math.round((peak - baseline) * 10) / 10 };
  } finally {
    clearInterval(timer);
  }
}

/** Chunk `index` of a generated file: cheap, deterministic, not all one byte. */
export function chunkAt(index: number, size: number): Uint8Array<ArrayBuffer> {
  const chunk = new Uint8Array(size);
  const view = new DataView(chunk.buffer);
  for (let at = 0; at + 4 <= size; at += 4096) view.setUint32(at, (index * 2654435761 + at) >>> 0);
  return chunk;
}

/** The median of some timings, rounded to 0.1 ms. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const value = sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
  return Math.round(value * 10) / 10;
}
