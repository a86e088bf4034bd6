import { Hono } from 'hono';
import { shareSearchQuerySchema } from '../../../contract/search';
import { creatorOf, type AppDeps, type AppEnv, type Principal } from '../../context';
import { ok, queryParams } from '../../http';
import { requireAdmin, requireAnyPermission } from '../auth/middleware';
import { searchShares, type ShareSearchScope } from './share-search';

/**
 * `GET /admin/search/shares` (every paste and file share) and `GET /user/search/shares` (the caller's own, as the
 * `/user/pastes` and `/user/files` lists scope them: a key finds pastes with the text permission, files with the file
 * permission).
 */
export function shareSearchRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  app.get('/admin/search/shares', requireAdmin, queryParams(shareSearchQuerySchema), async (c) => {
    const { q, limit } = c.req.valid('query');
    return ok(c, await searchShares(deps, { all: true, pastes: true, files: true }, q, limit));
  });

  app.get('/user/search/shares', requireAnyPermission('text', 'file'), queryParams(shareSearchQuerySchema), async (c) => {
    const { q, limit } = c.req.valid('query');
    return ok(c, await searchShares(deps, ownScope(c.get('principal')), q, limit));
  });

  return app;
}

function ownScope(principal: Principal): ShareSearchScope {
  const key = principal.kind === 'apiKey' ? principal.permissions : undefined;
  return { all: false, createdBy: creatorOf(principal), pastes: key?.text ?? true, files: key?.file ?? true };
}
