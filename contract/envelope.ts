import * as v from 'valibot';

/** HTTP statuses the server answers with; the envelope's `code` always equals the HTTP status. */
export const SUCCESS_CODES = [200, 201, 202] as const;

/** Machine-readable reasons carried in `data.error` of every error answer. */
export const ERROR_REASONS = [
  'validation',
  'unauthorized',
  'token_expired',
  'api_key_invalid',
  'forbidden',
  'not_found',
  'conflict',
  'gone',
  'too_large',
  'rate_limited',
  'unavailable',
  'internal',
] as const;
export type ErrorReason = (typeof ERROR_REASONS)[number];

/** The one body every JSON answer of the API has. */
export const envelopeSchema = <T extends v.GenericSchema>(data: T) =>
  v.object({
    code: v.number(),
    message: v.string(),
    data,
    success: v.boolean(),
  });

export type Envelope<T> = { code: number; message: string; data: T; success: boolean };

export const errorDataSchema = v.looseObject({
  error: v.picklist(ERROR_REASONS),
  field: v.optional(v.string()),
  issue: v.optional(v.string()),
});
export type ErrorData = v.InferOutput<typeof errorDataSchema>;

export const isSuccessCode = (code: number): boolean =>
  (SUCCESS_CODES as readonly number[]).includes(code);

/** How a client request can fail: a server reason, no answer at all, or a non-envelope HTTP error. */
export type RequestFailureReason = ErrorReason | 'network' | 'http';

/** The shape every client-side request error has; machines read it without knowing the client. */
export interface RequestFailure {
  reason: RequestFailureReason;
  status: number;
  /** Text to show, already in the user's language. */
  message: string;
}

export function asRequestFailure(error: unknown): RequestFailure {
  if (typeof error === 'object' && error !== null && 'reason' in error && 'message' in error) {
    const { reason, status, message } = error as Partial<RequestFailure>;
    return { reason: reason ?? 'internal', status: status ?? 0, message: message ?? '' };
  }
  return { reason: 'internal', status: 0, message: error instanceof Error ? error.message : String(error) };
}
