import * as v from 'valibot';
import { loginResponseSchema } from './auth';

/** A TOTP code: six digits (RFC 6238 as authenticator apps show it). */
export const TOTP_DIGITS = 6;
export const RECOVERY_CODE_COUNT = 10;
export const PASSKEY_NAME_MAX = 60;

/** Second steps a login may take; `recovery` whenever TOTP or a passkey is on. */
export const SECOND_FACTOR_METHODS = ['totp', 'passkey', 'recovery'] as const;
export type SecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];

/** The password step's answer when the admin has a second factor: no session yet, a short-lived pending token. */
export const secondStepRequiredSchema = v.object({
  username: v.string(),
  secondStep: v.object({
    pendingToken: v.string(),
    expiresAt: v.string(),
    methods: v.array(v.picklist(SECOND_FACTOR_METHODS)),
  }),
});
export type SecondStepRequired = v.InferOutput<typeof secondStepRequiredSchema>;

/** What `POST /api/admin/login` answers: a session, or the second step to take. */
export const loginAnswerSchema = v.union([loginResponseSchema, secondStepRequiredSchema]);
export type LoginAnswer = v.InferOutput<typeof loginAnswerSchema>;

const pendingToken = v.pipe(v.string(), v.minLength(1, 'required'), v.maxLength(100));
/** A TOTP code or a recovery code; spaces and dashes people type are ignored where the server reads it. */
const code = v.pipe(v.string(), v.trim(), v.minLength(1, 'required'), v.maxLength(40));

/** A WebAuthn credential as @simplewebauthn/browser hands it over; the server's library checks the rest. */
export const webAuthnCredentialSchema = v.looseObject({
  id: v.pipe(v.string(), v.minLength(1), v.maxLength(1024)),
  rawId: v.pipe(v.string(), v.maxLength(1024)),
  type: v.literal('public-key'),
  response: v.looseObject({ clientDataJSON: v.pipe(v.string(), v.maxLength(16_384)) }),
  clientExtensionResults: v.looseObject({}),
});
/** WebAuthn options for the browser (`optionsJSON` of @simplewebauthn/browser). */
export const webAuthnOptionsSchema = v.looseObject({ challenge: v.string() });

export const secondStepCodeRequestSchema = v.object({ pendingToken, code });
export const secondStepPasskeyOptionsRequestSchema = v.object({ pendingToken });
export const secondStepPasskeyRequestSchema = v.object({ pendingToken, credential: webAuthnCredentialSchema });

export const passkeySchema = v.object({
  id: v.string(),
  name: v.string(),
  createdAt: v.string(),
  lastUsedAt: v.nullable(v.string()),
});
export type Passkey = v.InferOutput<typeof passkeySchema>;

export const twoFactorStatusSchema = v.object({
  enabled: v.boolean(),
  totp: v.boolean(),
  recoveryCodesLeft: v.number(),
  passkeys: v.array(passkeySchema),
});
export type TwoFactorStatus = v.InferOutput<typeof twoFactorStatusSchema>;

export const totpSetupSchema = v.object({
  /** Base32, for typing into an app by hand. */
  secret: v.string(),
  /** `otpauth://totp/…`, the QR code's content. */
  uri: v.string(),
});
export type TotpSetup = v.InferOutput<typeof totpSetupSchema>;

export const totpConfirmRequestSchema = v.object({ code });

/** Recovery codes are shown once: in the answer that made them, never again. */
export const recoveryCodesSchema = v.object({ recoveryCodes: v.array(v.string()) });
export type RecoveryCodes = v.InferOutput<typeof recoveryCodesSchema>;
/** Enrolling a first factor makes recovery codes; enrolling another keeps those. */
export const enrolledSchema = v.object({ recoveryCodes: v.nullable(v.array(v.string())) });
export type Enrolled = v.InferOutput<typeof enrolledSchema>;

const passkeyName = v.pipe(v.string(), v.trim(), v.minLength(1, 'required'), v.maxLength(PASSKEY_NAME_MAX));
export const passkeyRegisterRequestSchema = v.object({ name: passkeyName, credential: webAuthnCredentialSchema });
export const passkeyRenameRequestSchema = v.object({ name: passkeyName });

export const disableTwoFactorRequestSchema = v.object({
  password: v.pipe(v.string(), v.minLength(1, 'required'), v.maxLength(128)),
  code,
});
