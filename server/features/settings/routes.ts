import { Hono } from 'hono';
import { updateSystemSettingsRequestSchema } from '../../../contract/system';
import type { AppDeps, AppEnv } from '../../context';
import { jsonBody, ok } from '../../http';
import { requireAdmin } from '../auth/middleware';
import { dashboardStats } from './dashboard';
import { readiness } from './readiness';
import { readSettings, writeSettings } from './settings';
import { versionInfo } from '../../version';

/** Health, version, the public max upload size, the admin's system settings and dashboard. */
export function systemRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  app.get('/health', (c) => ok(c, { status: 'ok' as const }));
  app.get('/health/ready', async (c) => ok(c, await readiness(deps)));
  app.get('/version', (c) => ok(c, versionInfo()));

  app.get('/system/max-upload-size', async (c) => {
    const { max_upload_size } = await readSettings(deps.db);
    return ok(c, { max_upload_size });
  });

  app.get('/system/upload-defaults', async (c) => {
    const { strip_image_location } = await readSettings(deps.db);
    return ok(c, { strip_image_location });
  });

  app.get('/system/previews', async (c) => {
    const { online_office_viewers } = await readSettings(deps.db);
    return ok(c, { online_office_viewers });
  });

  app.get('/admin/system-settings', requireAdmin, async (c) => ok(c, await readSettings(deps.db)));

  app.put('/admin/system-settings', requireAdmin, jsonBody(updateSystemSettingsRequestSchema), async (c) =>
    ok(c, await writeSettings(deps.db, c.req.valid('json'), deps.now()), 'settings_saved'),
  );

  app.get('/admin/dashboard/stats', requireAdmin, async (c) => ok(c, await dashboardStats(deps)));

  return app;
}
