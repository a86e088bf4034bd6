import * as v from 'valibot';
import { apiKeyListSchema, apiKeySchema, createdApiKeySchema } from '../../../contract/api-keys';
import { adminCheckResponseSchema, apiKeyTestResponseSchema, loginResponseSchema } from '../../../contract/auth';
import type { RouteDocs, Tag } from './types';

const tag: Tag = 'Auth and keys';

export const authDocs: RouteDocs = {
  'POST /api/admin/login': {
    tag,
    summary: 'Log in as the admin',
    description: 'Answers a bearer token valid 24 h: send it as `Authorization: Bearer <token>`. Rate limited per address and name.',
    data: loginResponseSchema,
    errors: [401, 429],
  },
  'POST /api/admin/logout': { tag, summary: 'Revoke this token', data: v.null() },
  'GET /api/admin/check': { tag, summary: 'Is this bearer token valid?', data: adminCheckResponseSchema },
  'GET /api/test/admin-token': { tag, summary: 'Is this bearer token valid? (same as check)', data: adminCheckResponseSchema },
  'POST /api/admin/change-password': {
    tag,
    summary: 'Change the admin\'s password and/or name',
    description: 'Revokes every token: log in again.',
    data: adminCheckResponseSchema,
    errors: [401, 409],
  },
  'GET /api/test/api-key': {
    tag,
    summary: 'Check an API key',
    description: 'Answers the key\'s name, base path and permissions; 401 when it is unknown or expired.',
    data: apiKeyTestResponseSchema,
  },
  'GET /api/admin/api-keys': {
    tag,
    summary: 'List API keys',
    description: 'Each key by its first characters (`key_masked`): the server keeps only a hash of the key itself.',
    data: apiKeyListSchema,
  },
  'POST /api/admin/api-keys': {
    tag,
    summary: 'Create an API key',
    description:
      'A generated key (24 characters) unless `custom_key` is given. Send it as `Authorization: ApiKey <key>`. ' +
      'This answer is the only one that holds the whole key (`key`): the server stores only its SHA-256 and its ' +
      'first characters, so keep the key now. A `basic_path` with a trailing slash (`/local/dir/`) is stored without it.',
    data: createdApiKeySchema,
    ok: [201],
    errors: [409],
  },
  'PUT /api/admin/api-keys/:id': { tag, summary: 'Change an API key', data: apiKeySchema, errors: [404] },
  'DELETE /api/admin/api-keys/:id': { tag, summary: 'Delete an API key', data: v.null(), errors: [404] },
};
