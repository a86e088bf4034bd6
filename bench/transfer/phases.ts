import type { Page } from 'playwright-core';

/** A request and when it started and ended (ms, on the clock of whoever timed it). */
export interface TimedRequest {
  /** `PUT` for a part; anything else for the other calls. */
  method: string;
  url: string;
  start: number;
  end?: number;
}

/** Adds every request of the page (and of its workers) to `into`, timed from its start to its response's headers. */
export function recordRequests(page: Page, into: TimedRequest[]) {
  page.on('request', (request) => {
    const entry: TimedRequest = { method: request.method(), url: request.url(), start: performance.now() };
    into.push(entry);
    request.response().then(
      () => (entry.end = performance.now()),
      () => undefined,
    );
  });
}

/**
 * Where the time went, from the requests' own timings: when the parts phase started and ended, how long 0, 1, 2 …
 * parts were in flight, the mean part time, and the complete call, in ms from `started`.
 */
export function describePhases(requests: TimedRequest[], started: number): string {
  const parts = requests.filter((request) => request.method === 'PUT' && request.end !== undefined);
  if (parts.length === 0) return 'no parts';
  const first = Math.min(...parts.map((part) => part.start));
  const last = Math.max(...parts.map((part) => part.end ?? 0));
  const changes = parts.flatMap((part) => [[part.start, 1] as const, [part.end ?? part.start, -1] as const]).sort((a, b) => a[0] - b[0]);
  const byLevel: number[] = [];
  let level = 0;
  let previous = first;
  for (const [at, change] of changes) {
    byLevel[level] = (byLevel[level] ?? 0) + at - previous;
    previous = at;
    level += change;
  }
  const complete = requests.find((request) => /complete/i.test(request.url));
  const ms = (value: number | undefined) => (value === undefined ? '?' : Math.round(value - started));
  const meanPart = parts.reduce((sum, part) => sum + (part.end ?? 0) - part.start, 0) / parts.length;
  return [
    `${parts.length} parts from ${ms(first)} to ${ms(last)} ms (${Math.round(meanPart)} ms a part)`,
    `ms with 0/1/2/3… in flight: ${Array.from(byLevel, (value) => Math.round(value ?? 0)).join('/')}`,
    `complete ${ms(complete?.start)}–${ms(complete?.end)} ms`,
  ].join('; ');
}
