import { t } from '@lingui/core/macro';
import * as v from 'valibot';
import { loginResponseSchema } from '../../../contract/auth';
import {
  enrolledSchema,
  recoveryCodesSchema,
  totpSetupSchema,
  twoFactorStatusSchema,
  webAuthnOptionsSchema,
} from '../../../contract/two-factor';
import { apiRequest } from './client';

/** The passkey ceremonies' browser half; loaded only when a passkey is used. */
const webAuthnBrowser = () => import('@simplewebauthn/browser');

/**
 * The passkey second step: options for the pending login, the browser's assertion (the authenticator asks the
 * person), then the session.
 */
export async function secondStepPasskey({ pendingToken }: { pendingToken: string }) {
  const options = await apiRequest('/admin/login/passkey-options', {
    method: 'POST',
    body: { pendingToken },
    schema: webAuthnOptionsSchema,
    ownUnauthorizedMessage: t`This login took too long: enter your password again`,
  });
  const { startAuthentication } = await webAuthnBrowser();
  const credential = await startAuthentication({ optionsJSON: options as unknown as Parameters<typeof startAuthentication>[0]['optionsJSON'] });
  return apiRequest('/admin/login/passkey', {
    method: 'POST',
    body: { pendingToken, credential },
    schema: loginResponseSchema,
    ownUnauthorizedMessage: t`The passkey was not accepted`,
  });
}

export const getTwoFactorStatus = () => apiRequest('/admin/two-factor', { schema: twoFactorStatusSchema });

export const beginTotp = () => apiRequest('/admin/two-factor/totp/setup', { method: 'POST', schema: totpSetupSchema });

export const confirmTotp = (code: string) =>
  apiRequest('/admin/two-factor/totp/confirm', { method: 'POST', body: { code }, schema: enrolledSchema });

export const replaceRecoveryCodes = () =>
  apiRequest('/admin/two-factor/recovery-codes', { method: 'POST', schema: recoveryCodesSchema });

/** Registers a passkey of this device (the browser asks the person), named as they chose. */
export async function addPasskey(name: string) {
  const options = await apiRequest('/admin/two-factor/passkeys/options', { method: 'POST', schema: webAuthnOptionsSchema });
  const { startRegistration } = await webAuthnBrowser();
  const credential = await startRegistration({ optionsJSON: options as unknown as Parameters<typeof startRegistration>[0]['optionsJSON'] });
  return apiRequest('/admin/two-factor/passkeys', { method: 'POST', body: { name, credential }, schema: enrolledSchema });
}

export const renamePasskey = (id: string, name: string) =>
  apiRequest(`/admin/two-factor/passkeys/${encodeURIComponent(id)}`, { method: 'PATCH', body: { name }, schema: v.null() });

export const removePasskey = (id: string) =>
  apiRequest(`/admin/two-factor/passkeys/${encodeURIComponent(id)}`, { method: 'DELETE', schema: v.null() });

export const disableTwoFactor = (body: { password: string; code: string }) =>
  apiRequest('/admin/two-factor/disable', {
    method: 'POST',
    body,
    schema: v.null(),
    ownUnauthorizedMessage: t`Wrong password or code`,
  });
