import { Hono, type Context } from 'hono';
import {
  createPasteRequestSchema,
  offsetQuerySchema,
  pageQuerySchema,
  unlockPasteRequestSchema,
  updatePasteRequestSchema,
} from '../../../contract/pastes';
import { batchDeleteRequestSchema } from '../../../contract/lists';
import { ENCRYPTED_PASTE_TYPE, sharePeekHeaders } from '../../../contract/share-peek';
import { creatorOf, type AppDeps, type AppEnv } from '../../context';
import { ApiError } from '../../errors';
import { jsonBody, ok, okWithPeek, queryParams, visitorOf } from '../../http';
import { translate } from '../../i18n/messages';
import { requireAdmin, requirePermission } from '../auth/middleware';
import {
  clearExpiredPastes,
  createPaste,
  deletePaste,
  deletePastes,
  getPaste,
  listPastesByOffset,
  listPastesByPage,
  openPaste,
  updatePaste,
  type PasteScope,
} from './pastes';
import { isSlugAvailable } from '../shares/slugs';

/**
 * Text shares: create (`/paste`), the public view and unlock (`/paste/{slug}`), the raw link (`/raw/{slug}`),
 * the editor's slug check (`/slugs/paste/{slug}`), and management under `/admin/pastes` (every paste) and
 * `/user/pastes` (the caller's own).
 */
export function pasteRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  app.post('/paste', requirePermission('text'), jsonBody(createPasteRequestSchema), async (c) =>
    ok(c, await createPaste(deps, c.get('principal'), c.req.valid('json')), 'paste_created', 201),
  );

  // Hono answers HEAD with the GET handler: a HEAD is a peek and must not spend a view. Its headers tell what the
  // share page shows before the visitor asks for the content (contract/share-peek.ts).
  app.get('/paste/:slug', async (c) => {
    const opened = await openPaste(deps, c.get('principal'), c.req.param('slug'), { via: 'page', peek: isHead(c), visitor: visitorOf(c, deps) });
    return okWithPeek(c, opened.paste, opened.peek);
  });

  app.post('/paste/:slug', jsonBody(unlockPasteRequestSchema), async (c) => {
    const opened = await openPaste(deps, c.get('principal'), c.req.param('slug'), {
      via: 'unlock',
      password: c.req.valid('json').password,
      visitor: visitorOf(c, deps),
    });
    return okWithPeek(c, opened.paste, opened.peek);
  });

  app.get('/raw/:slug', async (c) => {
    try {
      const { paste, peek } = await openPaste(deps, c.get('principal'), c.req.param('slug'), {
        via: 'raw',
        password: c.req.query('password'),
        peek: isHead(c),
        visitor: visitorOf(c, deps),
      });
      // An encrypted paste's payload is answered as stored, typed so that no browser shows it as text.
      const type = paste.encryption ? { 'Content-Type': ENCRYPTED_PASTE_TYPE } : {};
      // A HEAD's body is dropped; the size it would have is the content's own.
      const headers = { ...PLAIN_TEXT, ...type, 'Content-Disposition': 'inline', ...sharePeekHeaders(peek) };
      if (isHead(c)) return c.body(null, 200, { ...headers, 'Content-Length': String(peek.size) });
      return c.body(paste.content ?? '', 200, headers);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return c.body(translate(error.messageKey, c.get('lang'), error.params), error.status, PLAIN_TEXT);
    }
  });

  app.get('/slugs/paste/:slug', requirePermission('text'), async (c) => {
    const slug = c.req.param('slug').trim();
    return ok(c, { slug, available: await isSlugAvailable(deps.db, 'pastes', slug) });
  });

  app.route('/admin/pastes', managedPasteRoutes(deps, 'admin'));
  app.route('/user/pastes', managedPasteRoutes(deps, 'user'));
  return app;
}

/** The raw link is plain text even when it fails; nosniff keeps a browser from rendering pasted HTML. */
const PLAIN_TEXT = {
  'Content-Type': 'text/plain; charset=utf-8',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
};

const isHead = (c: Context<AppEnv>) => c.req.method === 'HEAD';

/**
 * List, detail, update, delete and batch delete. Admins see every paste with page pagination and may clear
 * expired ones; API keys (and admins calling the user routes) see what they created, offset-paginated.
 */
function managedPasteRoutes(deps: AppDeps, kind: 'admin' | 'user') {
  const app = new Hono<AppEnv>();
  app.use('*', kind === 'admin' ? requireAdmin : requirePermission('text'));
  const scopeOf = (c: Context<AppEnv>): PasteScope =>
    kind === 'admin' ? { all: true } : { all: false, createdBy: creatorOf(c.get('principal')) };

  if (kind === 'admin') {
    app.get('/', queryParams(pageQuerySchema), async (c) => {
      const { page, limit } = c.req.valid('query');
      return ok(c, await listPastesByPage(deps, scopeOf(c), page, limit));
    });
    app.post('/clear-expired', async (c) => {
      const result = await clearExpiredPastes(deps);
      return ok(c, result, 'pastes_cleared', 200, result);
    });
  } else {
    app.get('/', queryParams(offsetQuerySchema), async (c) => {
      const { limit, offset } = c.req.valid('query');
      return ok(c, await listPastesByOffset(deps, scopeOf(c), limit, offset));
    });
  }

  app.post('/batch-delete', jsonBody(batchDeleteRequestSchema), async (c) => {
    const result = await deletePastes(deps, scopeOf(c), c.req.valid('json').ids);
    return ok(c, result, 'pastes_deleted', result.missing === 0 ? 200 : 202, result);
  });

  app.get('/:id', async (c) => ok(c, await getPaste(deps, scopeOf(c), c.req.param('id'))));

  app.put('/:id', jsonBody(updatePasteRequestSchema), async (c) =>
    ok(c, await updatePaste(deps, scopeOf(c), c.req.param('id'), c.req.valid('json')), 'paste_updated'),
  );

  app.delete('/:id', async (c) => {
    await deletePaste(deps, scopeOf(c), c.req.param('id'));
    return ok(c, null, 'paste_deleted');
  });

  return app;
}
