import { t } from '@lingui/core/macro';
import * as v from 'valibot';
import {
  adminCheckResponseSchema,
  apiKeyTestResponseSchema,
  loginResponseSchema,
  type ChangePasswordRequest,
  type LoginRequest,
} from '../../../contract/auth';
import { loginAnswerSchema } from '../../../contract/two-factor';
import { apiRequest } from './client';

/** The password step: a session, or (the admin has a second factor) what the second step needs. */
export const login = (body: LoginRequest) =>
  apiRequest('/admin/login', {
    method: 'POST',
    body,
    schema: loginAnswerSchema,
    ownUnauthorizedMessage: t`Wrong username or password`,
  });

export const secondStepCode = (body: { pendingToken: string; code: string }) =>
  apiRequest('/admin/login/second-step', {
    method: 'POST',
    body,
    schema: loginResponseSchema,
    ownUnauthorizedMessage: t`Wrong or already used code`,
  });

/** Fire and forget: the local logout never waits for the server. */
export const logout = (token: string) =>
  apiRequest('/admin/logout', {
    method: 'POST',
    schema: v.unknown(),
    credentials: { adminToken: token },
    ownUnauthorizedMessage: '',
  }).catch(() => undefined);

export const validateAdminToken = (token: string) =>
  apiRequest('/test/admin-token', {
    schema: adminCheckResponseSchema,
    credentials: { adminToken: token },
    ownUnauthorizedMessage: t`Admin session expired, please log in again`,
  });

export const testApiKey = (apiKey: string) =>
  apiRequest('/test/api-key', {
    schema: apiKeyTestResponseSchema,
    credentials: { apiKey },
    ownUnauthorizedMessage: t`API key invalid or expired`,
  });

export const changePassword = (body: ChangePasswordRequest) =>
  apiRequest('/admin/change-password', {
    method: 'POST',
    body,
    schema: v.object({ username: v.string() }),
    ownUnauthorizedMessage: t`Verification failed`,
  });
