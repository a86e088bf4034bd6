import { Hono, type Context } from 'hono';
import { accessLogQuerySchema } from '../../../contract/access-log';
import { creatorOf, type AppDeps, type AppEnv } from '../../context';
import { ok, queryParams } from '../../http';
import { csvHeaders } from '../../csv';
import { requireAdmin, requirePermission } from '../auth/middleware';
import type { PasteScope } from '../pastes/pastes';
import { accessLogCsv, readAccessLog, shareInScope, type ShareTable } from './records';

/**
 * A share's access log for whoever manages it: `/admin/{pastes,files}/{slug}/access-log` (any share) and
 * `/user/…` (the caller's own; a key needs the text or file permission, as for the share itself). `?format=csv`
 * or `…/access-log.csv`: the whole log as a CSV file.
 */
export function accessLogRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  for (const kind of ['admin', 'user'] as const) {
    for (const [table, permission] of [
      ['pastes', 'text'],
      ['files', 'file'],
    ] as const) {
      const base = `/${kind}/${table}/:slug`;
      const guard = kind === 'admin' ? requireAdmin : requirePermission(permission);
      const scopeOf = (c: Context<AppEnv>): PasteScope =>
        kind === 'admin' ? { all: true } : { all: false, createdBy: creatorOf(c.get('principal')) };
      const shareOf = (c: Context<AppEnv>) => shareInScope(deps.db, table, scopeOf(c), c.req.param('slug') ?? '');

      app.get(`${base}/access-log`, guard, queryParams(accessLogQuerySchema), async (c) => {
        const { limit, offset, format } = c.req.valid('query');
        const shareId = await shareOf(c);
        if (format === 'csv') return csvAnswer(deps, table, shareId, c.req.param('slug') ?? '');
        return ok(c, await readAccessLog(deps, table, shareId, limit, offset));
      });
      app.get(`${base}/access-log.csv`, guard, async (c) => csvAnswer(deps, table, await shareOf(c), c.req.param('slug') ?? ''));
    }
  }
  return app;
}

function csvAnswer(deps: AppDeps, table: ShareTable, shareId: string, slug: string): Response {
  const chunks = accessLogCsv(deps, table, shareId);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  return new Response(body, { headers: csvHeaders(`access-log-${slug}.csv`) });
}
