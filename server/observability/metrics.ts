import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AppDeps } from '../context';
import { postgresPoolStats } from '../db/dialect';
import { jobsOf } from '../features/jobs/service';
import { viewCountsOf } from '../features/shares/view-counts';
import { transfersOf } from '../features/transfers/registry';

/** What the request middleware reports of each answer. */
export interface HttpMetrics {
  observe(method: string, route: string, status: number, seconds: number): void;
}

export interface AppMetrics extends HttpMetrics {
  /** This app's own registry: tests make many apps in one process, and prom-client's global one is shared. */
  readonly registry: Registry;
}

/** Latency buckets in seconds: a cached paste read is under a millisecond, a large upload's request minutes. */
const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120];

/**
 * The app's Prometheus metrics: requests by route pattern and status and their latency (counted as they end),
 * process metrics (prom-client's defaults), and gauges read at each scrape from the in-memory state of transfers,
 * jobs, the view-count queue and the PostgreSQL pool.
 */
function createMetrics(deps: AppDeps): AppMetrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'clipstash_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  const latency = new Histogram({
    name: 'clipstash_http_request_duration_seconds',
    help: 'Time to an answer\'s headers (a stream\'s body may go on after), by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(read());
      },
    });
  gauge('clipstash_transfers_in_flight', 'Uploads and downloads this instance carries now', () => transfersOf(deps).inFlight());
  gauge('clipstash_jobs_running', 'Server jobs (copies, moves, syncs) this instance runs now', () => jobsOf(deps).running());
  gauge('clipstash_view_counts_queued', 'Shares whose counted views wait for the next batched write', () => viewCountsOf(deps).queued);
  new Gauge({
    name: 'clipstash_db_pool_connections',
    help: 'PostgreSQL pool: connections by state (total, idle) and queries waiting for one; absent on SQLite',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const stats = postgresPoolStats(deps.db);
      if (!stats) return;
      this.set({ state: 'total' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });
  return {
    registry,
    observe(method, route, status, seconds) {
      requests.inc({ method, route, status: String(status) });
      latency.observe({ method, route }, seconds);
    },
  };
}

/** Whether anyone may read the metrics (a token or a port of their own): without either, nothing is counted. */
export const metricsEnabled = (deps: AppDeps): boolean => deps.config.metricsToken !== undefined || deps.config.metricsPort !== undefined;

const registries = new WeakMap<object, AppMetrics>();

/** The app's metrics (one registry per app, so each test app has its own). */
export function metricsOf(deps: AppDeps): AppMetrics {
  let metrics = registries.get(deps);
  if (!metrics) {
    metrics = createMetrics(deps);
    registries.set(deps, metrics);
  }
  return metrics;
}
