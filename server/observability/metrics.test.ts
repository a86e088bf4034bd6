import parsePrometheusTextFormat, { type PrometheusFamily } from 'parse-prometheus-text-format';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { expectError, expectOk, useTestApp } from '../../tests/fixtures/test-app';
import { usingPostgres } from '../../tests/fixtures/test-database';
import { viewCountsOf } from '../features/shares/view-counts';
import { metricsPortApp } from './metrics-routes';

const TOKEN = 'metrics-token-for-the-tests-0123';

/** The families of the exposition, by name. */
function familiesOf(text: string): Map<string, PrometheusFamily> {
  return new Map(parsePrometheusTextFormat(text).map((family) => [family.name, family]));
}

/** The value of the sample of `family` whose labels include `labels` (0 when there is none yet). */
function sampleValue(families: Map<string, PrometheusFamily>, family: string, labels: Record<string, string> = {}): number {
  const sample = families.get(family)?.metrics.find((metric) => Object.entries(labels).every(([name, value]) => metric.labels?.[name] === value));
  return Number(sample?.value ?? 0);
}

describe('GET /metrics behind METRICS_TOKEN', () => {
  const t = useTestApp({ env: { METRICS_TOKEN: TOKEN } });
  const scrapeText = async () => {
    const res = await t.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text();
  };
  const scrape = async () => familiesOf(await scrapeText());

  it.each([
    ['no credentials', {}],
    ['a wrong token', { authorization: `Bearer ${TOKEN}x` }],
    ['the token under another scheme', { authorization: `Basic ${TOKEN}` }],
    ['an admin session', undefined],
  ])('refuses %s with 401 in the envelope', async (_name, headers) => {
    const res = await t.request('/metrics', headers ? { headers } : { token: t.token });
    const body = await expectError(res, 401);
    expect(body.message).toContain('METRICS_TOKEN');
    expect(JSON.stringify(body)).not.toContain(TOKEN);
  });

  it('parses as Prometheus text with the expected families', async () => {
    const families = await scrape();
    for (const name of [
      'clipstash_http_requests_total',
      'clipstash_http_request_duration_seconds',
      'clipstash_transfers_in_flight',
      'clipstash_jobs_running',
      'clipstash_view_counts_queued',
      'clipstash_db_pool_connections',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(families.has(name), name).toBe(true);
    }
    expect(families.get('clipstash_http_requests_total')?.type).toBe('COUNTER');
    expect(families.get('clipstash_http_request_duration_seconds')?.type).toBe('HISTOGRAM');
    expect(sampleValue(families, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    // PostgreSQL's pool is open once the app ran a query; SQLite has none.
    expect(families.get('clipstash_db_pool_connections')?.metrics.length ?? 0).toBe(usingPostgres() ? 3 : 0);
  });

  it('counts requests by route pattern and status, with their latency', async () => {
    const labels = { method: 'GET', route: '/api/paste/:slug', status: '404' };
    const before = await scrape();
    for (let n = 0; n < 3; n++) await expectError(await t.request(`/api/paste/missing-${n}`), 404);
    const text = await scrapeText();
    expect(sampleValue(familiesOf(text), 'clipstash_http_requests_total', labels) - sampleValue(before, 'clipstash_http_requests_total', labels)).toBe(3);
    // The parser folds a histogram's label sets together: its lines are read as they are.
    const count = /^clipstash_http_request_duration_seconds_count\{method="GET",route="\/api\/paste\/:slug"\} (\d+)$/m.exec(text)?.[1];
    const inf = /^clipstash_http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/api\/paste\/:slug"\} (\d+)$/m.exec(text)?.[1];
    expect(Number(count)).toBeGreaterThanOrEqual(3);
    expect(inf).toBe(count);
  });

  it('shows the view counts waiting for their batched write', async () => {
    const created = await expectOk(await t.request('/api/paste', { token: t.token, json: { content: 'counted' } }), v.object({ slug: v.string() }), 201);
    await viewCountsOf(t.deps).flush();
    await expectOk(await t.request(`/api/paste/${created.slug}`), v.unknown());
    expect(sampleValue(await scrape(), 'clipstash_view_counts_queued')).toBe(1);
    await viewCountsOf(t.deps).flush();
    expect(sampleValue(await scrape(), 'clipstash_view_counts_queued')).toBe(0);
  });
});

describe('GET /metrics without METRICS_TOKEN', () => {
  const t = useTestApp({ login: false });

  it('answers 404: never public by accident', async () => {
    await expectError(await t.request('/metrics'), 404);
    await expectError(await t.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } }), 404);
  });
});

describe('METRICS_PORT', () => {
  const t = useTestApp({ env: { METRICS_PORT: '9464' }, login: false });

  it('serves the metrics on their own app without a token, and the main port keeps answering 404', async () => {
    await t.request('/api/health');
    const res = await metricsPortApp(t.deps).request('/metrics');
    expect(res.status).toBe(200);
    expect(sampleValue(familiesOf(await res.text()), 'clipstash_http_requests_total', { route: '/api/health', status: '200' })).toBe(1);
    await expectError(await t.request('/metrics'), 404);
    expect((await metricsPortApp(t.deps).request('/api/health')).status).toBe(404);
  });
});
