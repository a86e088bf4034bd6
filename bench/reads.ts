import { startInstance } from '../tests/fixtures/instances';
import { processCpuSeconds } from './cpu-time';
import { ADMIN_PASSWORD, load, pastePath } from './scale';
import { benchSize } from './size';

/** Requests a second at `url` for `seconds`, and the server's CPU microseconds per request meanwhile. */
async function measure(url: string, serverPid: number, seconds: number) {
  const before = processCpuSeconds(serverPid);
  const { perSecond, total } = await load([url], seconds);
  return { perSecond, cpuUs: Math.round(((processCpuSeconds(serverPid) - before) * 1e6) / total) };
}

/**
 * `paste_reads_per_s`, `health_reads_per_s` and their ratio: GET /api/paste/{slug} of a paste without a view
 * limit against GET /api/health on one server (SQLite), 50 connections, interleaved (paste, health, paste, health)
 * so that a change in the machine's load hits both; the better of each pair of runs. `*_server_cpu_us` is the
 * server's own CPU time per request (the lower of each pair): what the load generator and other work on a shared
 * machine do not move as much.
 */
export async function reads() {
  // Seconds of load per measurement, and pairs of measurements.
  const seconds = benchSize(10, 1, 'BENCH_READS_SECONDS');
  const rounds = benchSize(2, 1);
  const instance = await startInstance({ ADMIN_PASSWORD });
  try {
    const pid = instance.child.pid;
    if (pid === undefined) throw new Error('the server has no process id');
    const paste = `${instance.origin}${await pastePath(instance)}`;
    const health = `${instance.origin}/api/health`;
    const best = { paste: { perSecond: 0, cpuUs: Infinity }, health: { perSecond: 0, cpuUs: Infinity } };
    for (let round = 0; round < rounds; round++) {
      for (const [name, url] of [['paste', paste], ['health', health]] as const) {
        const run = await measure(url, pid, seconds);
        best[name] = { perSecond: Math.max(best[name].perSecond, run.perSecond), cpuUs: Math.min(best[name].cpuUs, run.cpuUs) };
      }
    }
    console.log(`paste_reads_per_s: ${best.paste.perSecond}`);
    console.log(`health_reads_per_s: ${best.health.perSecond}`);
    console.log(`paste_to_health_ratio: ${(best.paste.perSecond / best.health.perSecond).toFixed(2)}`);
    console.log(`paste_server_cpu_us: ${best.paste.cpuUs}`);
    console.log(`health_server_cpu_us: ${best.health.cpuUs}`);
  } finally {
    await instance.stop();
  }
}
