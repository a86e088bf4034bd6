import { dashboardStatsSchema } from '../../../contract/files';
import { healthSchema, readinessSchema, maxUploadSizeSchema, previewSettingsSchema, systemSettingsSchema, uploadDefaultsSchema, versionSchema } from '../../../contract/system';
import type { RouteDocs, Tag } from './types';

const tag: Tag = 'System';

export const systemDocs: RouteDocs = {
  'GET /api/health': { tag, summary: 'Is the server up?', data: healthSchema },
  'GET /api/health/ready': {
    tag,
    summary: 'Can the server take requests?',
    description:
      'For a load balancer: runs a trivial database query and a cheap call to the default storage. 503 names the check ' +
      'that failed, or says the server is draining after a SIGTERM. `/api/health` stays the cheap liveness check.',
    data: readinessSchema,
    errors: [503],
  },
  'GET /api/version': { tag, summary: 'The server\'s version', data: versionSchema },
  'GET /api/system/max-upload-size': {
    tag,
    summary: 'The largest upload allowed, in MB',
    data: maxUploadSizeSchema,
  },
  'GET /api/system/upload-defaults': {
    tag,
    summary: 'What an upload starts from: whether shared photos lose their location',
    data: uploadDefaultsSchema,
  },
  'GET /api/system/previews': {
    tag,
    summary: 'Whether file previews may offer the online Office viewers (off by default)',
    data: previewSettingsSchema,
  },
  'GET /api/admin/system-settings': { tag, summary: 'Read the settings', data: systemSettingsSchema },
  'PUT /api/admin/system-settings': { tag, summary: 'Change the settings', data: systemSettingsSchema },
  'GET /api/admin/dashboard/stats': { tag, summary: 'Totals, storage use and last week\'s activity', data: dashboardStatsSchema },
  'GET /api/openapi.json': {
    tag,
    summary: 'This API description (OpenAPI 3.1)',
    raw: [{ status: 200, contentType: 'application/json', description: 'The OpenAPI document.' }],
  },
  'GET /api/docs': {
    tag,
    summary: 'The interactive API reference',
    raw: [{ status: 200, contentType: 'text/html', description: 'The reference page.' }],
  },
  'GET /api/docs/:file': {
    tag,
    summary: 'The reference page\'s scripts and styles',
    raw: [{ status: 200, contentType: 'text/css', description: 'A stylesheet or (`text/javascript`) a script.' }],
    errors: [404],
  },
};

