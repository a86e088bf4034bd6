import { startInstance } from '../tests/fixtures/instances';
import { ADMIN_PASSWORD, pastePath, requestsPerSecond } from './scale';
import { benchSize } from './size';

/**
 * `paste_reads_per_s`, `health_reads_per_s` and their ratio: GET /api/paste/{slug} of a paste without a view
 * limit against GET /api/health on one server (SQLite), 50 connections, interleaved (paste, health, paste, health)
 * so that a change in the machine's load hits both; the better of each pair of runs.
 */
export async function reads() {
  // Seconds of load per measurement, and pairs of measurements.
  const seconds = benchSize(10, 1, 'BENCH_READS_SECONDS');
  const rounds = benchSize(2, 1);
  const instance = await startInstance({ ADMIN_PASSWORD });
  try {
    const paste = `${instance.origin}${await pastePath(instance)}`;
    const health = `${instance.origin}/api/health`;
    let pastes = 0;
    let healths = 0;
    for (let round = 0; round < rounds; round++) {
      pastes = Math.max(pastes, await requestsPerSecond([paste], seconds));
      healths = Math.max(healths, await requestsPerSecond([health], seconds));
    }
    console.log(`paste_reads_per_s: ${pastes}`);
    console.log(`health_reads_per_s: ${healths}`);
    console.log(`paste_to_health_ratio: ${(pastes / healths).toFixed(2)}`);
  } finally {
    await instance.stop();
  }
}
