/**
 * Markdown to (unsanitised) HTML in a worker of its own. marked builds a hundred regular expressions when its module
 * is evaluated and compiles them on first use: 40-60 ms of a share's first load that made one long task on the
 * page's main thread, and a long document takes as long again on every rendering. In the worker neither holds up
 * the page. Where a worker cannot run (no Worker, its script failed to load), the parser loads into the page.
 */

export interface ParseRequest {
  id: number;
  markdown: string;
}
export type ParseReply = { id: number; html: string } | { id: number; error: string };

interface Pending {
  markdown: string;
  resolve: (html: string) => void;
  reject: (error: Error) => void;
}

const pending = new Map<number, Pending>();
let worker: Worker | undefined;
let lastId = 0;

const inThisThread = (markdown: string) => import('../../../contract/markdown').then(({ markdownToUnsafeHtml }) => markdownToUnsafeHtml(markdown));

function startWorker(): Worker {
  const started = new Worker(new URL('./markdown.worker.ts', import.meta.url), { type: 'module', name: 'markdown' });
  started.onmessage = ({ data: reply }: MessageEvent<ParseReply>) => {
    const request = pending.get(reply.id);
    pending.delete(reply.id);
    if ('html' in reply) request?.resolve(reply.html);
    else request?.reject(new Error(reply.error));
  };
  // The script did not load or evaluate: what it was asked is parsed here, the next request starts a new worker.
  started.onerror = () => {
    started.terminate();
    if (worker === started) worker = undefined;
    const waiting = [...pending.values()];
    pending.clear();
    for (const { markdown, resolve, reject } of waiting) inThisThread(markdown).then(resolve, reject);
  };
  return started;
}

/** `markdown` as HTML that still has to be sanitised (render.ts does). */
export function parseMarkdown(markdown: string): Promise<string> {
  if (typeof Worker !== 'function') return inThisThread(markdown);
  worker ??= startWorker();
  const id = ++lastId;
  const request: ParseRequest = { id, markdown };
  return new Promise((resolve, reject) => {
    pending.set(id, { markdown, resolve, reject });
    worker?.postMessage(request);
  });
}
