import { writeFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';

/** A Chromium trace event (the parts this reads). */
interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: {
    name?: string;
    src_func?: string;
    src_file?: string;
    data?: Record<string, unknown>;
    chrome_mojo_event_info?: { mojo_interface_tag?: string };
    watcher_notify_interface_tag?: string;
  };
}

/**
 * What runs on the page's main thread, from a Chromium trace (`BENCH_TRACE=1`): each top-level task is put under
 * the most telling event inside it (a mojo message's interface, a timer, a message from the worker, a frame), so
 * that the bench can say what the main thread spends its time on rather than only how much.
 */
export class MainThreadTrace {
  private constructor(private readonly browser: Browser) {}

  static async start(browser: Browser, page: Page): Promise<MainThreadTrace> {
    await browser.startTracing(page, {
      categories: ['toplevel', 'mojom', 'devtools.timeline', 'blink', 'v8.execute', 'disabled-by-default-devtools.timeline'],
    });
    return new MainThreadTrace(browser);
  }

  /**
   * Stops tracing and keeps the trace in `file` (for DevTools' Performance panel): one line per kind of task, the
   * costliest first, as `ms (count) kind`.
   */
  async stop(file: string, top = 12): Promise<string[]> {
    const buffer = await this.browser.stopTracing();
    writeFileSync(file, buffer);
    const { traceEvents } = JSON.parse(buffer.toString('utf8')) as { traceEvents: TraceEvent[] };
    return [...summarise(traceEvents).slice(0, top), `trace in ${file}`];
  }
}

/** What a task is for, from the first event inside it that tells (a frame, a message, a mojo call, a GC). */
function kindOf(children: TraceEvent[], task: TraceEvent): string {
  for (const child of children) {
    const { name } = child;
    if (/BeginMainFrame|UpdateLifecycle/.test(name)) return 'frame (style, layout, paint, commit)';
    if (name === 'MessagePort::Accept') return "message on a MessagePort (the worker's events, React's scheduler)";
    const mojo = child.args?.chrome_mojo_event_info?.mojo_interface_tag ?? child.args?.watcher_notify_interface_tag;
    if (mojo && mojo !== 'unknown interface') return `mojo ${mojo}`;
    if (/^(V8\.GC|MajorGC|MinorGC)/.test(name)) return 'garbage collection';
    if (/^(FunctionCall|TimerFire|EventDispatch|FireAnimationFrame)$/.test(name)) {
      const data = child.args?.data;
      return `${name} ${String(data?.['type'] ?? data?.['functionName'] ?? '')} ${String(data?.['url'] ?? '').replace(/^.*\//, '')}`.trim();
    }
  }
  const posted = children.find((child) => child.args?.src_func)?.args;
  return posted ? `other (posted from ${posted.src_file}:${posted.src_func})` : `other ${task.name}`;
}

function summarise(events: TraceEvent[]): string[] {
  const names = events.filter((event) => event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain');
  // The page's renderer is the one whose main thread ran the most tasks (other renderers idle through the upload).
  const busiest = names
    .map((thread) => ({ thread, count: events.filter((event) => event.pid === thread.pid && event.tid === thread.tid && event.ph === 'X').length }))
    .sort((a, b) => b.count - a.count)[0]?.thread;
  if (!busiest) return ['no renderer main thread in the trace'];
  const onThread = events
    .filter((event) => event.pid === busiest.pid && event.tid === busiest.tid && event.ph === 'X' && event.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const totals = new Map<string, { ms: number; count: number }>();
  let index = 0;
  let tasks = 0;
  while (index < onThread.length) {
    const task = onThread[index] as TraceEvent;
    const end = task.ts + (task.dur ?? 0);
    const children: TraceEvent[] = [];
    index++;
    tasks++;
    while (index < onThread.length && (onThread[index] as TraceEvent).ts < end) children.push(onThread[index++] as TraceEvent);
    const kind = kindOf(children, task);
    const total = totals.get(kind) ?? { ms: 0, count: 0 };
    total.ms += (task.dur ?? 0) / 1000;
    total.count++;
    totals.set(kind, total);
  }
  const all = [...totals.values()].reduce((sum, total) => sum + total.ms, 0);
  return [
    `${Math.round(all)} ms in ${tasks} tasks`,
    ...[...totals.entries()].sort((a, b) => b[1].ms - a[1].ms).map(([kind, total]) => `${Math.round(total.ms)} ms (${total.count}) ${kind}`),
  ];
}
