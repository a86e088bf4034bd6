import * as v from 'valibot';
import { apiKeyListSchema, apiKeySchema, createdApiKeySchema } from '../../../contract/api-keys';
import { adminCheckResponseSchema, apiKeyTestResponseSchema, loginResponseSchema } from '../../../contract/auth';
import {
  enrolledSchema,
  loginAnswerSchema,
  recoveryCodesSchema,
  totpSetupSchema,
  twoFactorStatusSchema,
  webAuthnOptionsSchema,
} from '../../../contract/two-factor';
import type { RouteDocs, Tag } from './types';

const tag: Tag = 'Auth and keys';

export const authDocs: RouteDocs = {
  'POST /api/admin/login': {
    tag,
    summary: 'Log in as the admin',
    description:
      'Answers a bearer token valid 24 h: send it as `Authorization: Bearer <token>`. Rate limited per address and name. ' +
      'When the admin has a second factor, it answers `secondStep` instead: a pending token (5 minutes, not a session) ' +
      'and the methods to finish with at `/api/admin/login/second-step` or `/api/admin/login/passkey`.',
    data: loginAnswerSchema,
    errors: [401, 429],
  },
  'POST /api/admin/login/second-step': {
    tag,
    summary: 'Finish a login with a TOTP code or a recovery code',
    description:
      'Six digits are a TOTP code (refused when already used), anything else a recovery code (good once). Counts ' +
      'against the same rate limit as the password.',
    data: loginResponseSchema,
    errors: [401, 429],
  },
  'POST /api/admin/login/passkey-options': {
    tag,
    summary: 'WebAuthn options for finishing a login with a passkey',
    data: webAuthnOptionsSchema,
    errors: [401],
  },
  'POST /api/admin/login/passkey': {
    tag,
    summary: 'Finish a login with a passkey assertion',
    data: loginResponseSchema,
    errors: [401, 429],
  },
  'GET /api/admin/two-factor': { tag, summary: 'The admin\'s second factors', data: twoFactorStatusSchema },
  'POST /api/admin/two-factor/totp/setup': {
    tag,
    summary: 'Start setting up an authenticator app',
    description: 'A new secret and its `otpauth://` URI; TOTP is on only once `totp/confirm` gets a code of it.',
    data: totpSetupSchema,
    errors: [409],
  },
  'POST /api/admin/two-factor/totp/confirm': {
    tag,
    summary: 'Turn the authenticator app on with a first code',
    description: 'Answers 10 recovery codes, once, when this is the first second factor.',
    data: enrolledSchema,
  },
  'POST /api/admin/two-factor/recovery-codes': {
    tag,
    summary: 'Replace the recovery codes',
    description: 'Answers 10 new codes, once; the old ones stop working.',
    data: recoveryCodesSchema,
    errors: [409],
  },
  'POST /api/admin/two-factor/passkeys/options': { tag, summary: 'WebAuthn options for adding a passkey', data: webAuthnOptionsSchema },
  'POST /api/admin/two-factor/passkeys': {
    tag,
    summary: 'Add a passkey',
    description: 'Answers 10 recovery codes, once, when this is the first second factor.',
    data: enrolledSchema,
    ok: [201],
  },
  'PATCH /api/admin/two-factor/passkeys/:id': { tag, summary: 'Rename a passkey', data: v.null(), errors: [404] },
  'DELETE /api/admin/two-factor/passkeys/:id': {
    tag,
    summary: 'Remove a passkey',
    description: 'The last second factor cannot be removed this way (409): turn two-factor sign-in off instead.',
    data: v.null(),
    errors: [404, 409],
  },
  'POST /api/admin/two-factor/disable': {
    tag,
    summary: 'Turn two-factor sign-in off',
    description: 'Needs the password and a TOTP or recovery code; removes TOTP, recovery codes and passkeys.',
    data: v.null(),
    errors: [401, 409, 429],
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
