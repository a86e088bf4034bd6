import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { STREAM_KEEP_ALIVE_MS, STREAM_RETRY_MS, type LiveEvent } from '../../../contract/jobs';
import type { AppDeps, AppEnv } from '../../context';
import { ok } from '../../http';
import { requireAdmin } from '../auth/middleware';
import { transferFeedOf } from './feed';
import { listTransfers } from './records';
import { transfersOf } from './registry';

/** The admin's view of what every instance is receiving or sending: a list, and its changes as Server-Sent Events. */
export function transferRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  const current = async () => {
    await transfersOf(deps).flush(); // This instance's latest bytes are in the table before it is read.
    return listTransfers(deps);
  };

  app.get('/admin/transfers', requireAdmin, async (c) => ok(c, { items: await current() }));

  app.get('/admin/transfers/events', requireAdmin, (c) =>
    streamSSE(c, async (stream) => {
      const send = (event: LiveEvent) => stream.writeSSE({ event: event.type, data: JSON.stringify(event) });
      // Changes that come while the snapshot is read wait for it, so none falls between the two.
      const waiting: LiveEvent[] = [];
      let live = false;
      const unsubscribe = transferFeedOf(deps).subscribe((transfer) => {
        const event: LiveEvent = { type: 'transfer', transfer };
        if (live) void send(event);
        else waiting.push(event);
      });
      const keepAlive = setInterval(() => void stream.write(': keep-alive\n\n'), STREAM_KEEP_ALIVE_MS);
      const closed = new Promise<void>((resolve) => {
        stream.onAbort(resolve);
        c.req.raw.signal.addEventListener('abort', () => resolve());
      });
      try {
        await stream.write(`retry: ${STREAM_RETRY_MS}\n\n`);
        await send({ type: 'snapshot', jobs: [], transfers: await current() });
        live = true;
        for (const event of waiting.splice(0)) await send(event);
        await closed;
      } finally {
        unsubscribe();
        clearInterval(keepAlive);
      }
    }),
  );

  return app;
}
