import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorReason } from '../contract/envelope';
import { FS_NAME_MAX_BYTES } from '../contract/fs-paths';
import { ENCRYPTED_PAYLOAD_MIN_BYTES } from '../contract/paste-encryption';
import type { MessageKey, MessageParams } from './i18n/messages';

const REASON_BY_STATUS: Record<number, ErrorReason> = {
  400: 'validation',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  410: 'gone',
  413: 'too_large',
  429: 'rate_limited',
  503: 'unavailable',
};

/** An expected failure: becomes one envelope with a translated message and the status as `code`. */
export class ApiError extends Error {
  readonly reason: ErrorReason;
  constructor(
    readonly status: ContentfulStatusCode,
    readonly messageKey: MessageKey,
    readonly params: MessageParams = {},
    readonly data: Record<string, unknown> = {},
    reason?: ErrorReason,
  ) {
    super(messageKey);
    this.reason = reason ?? REASON_BY_STATUS[status] ?? 'internal';
  }
}

/** Issues that deserve more than the generic "invalid value" message, as they say what the value must be. */
const ISSUE_MESSAGES: Partial<Record<string, { key: MessageKey; params?: MessageParams }>> = {
  not_base64url: { key: 'encrypted_payload_not_base64url' },
  payload_too_short: { key: 'encrypted_payload_too_short', params: { min: ENCRYPTED_PAYLOAD_MIN_BYTES } },
};

/**
 * A name longer than the storage holds: the message says the longest that fits (bytes of UTF-8; a Chinese
 * character takes three), and `data.maxBytes` says it to programs.
 */
export const nameTooLong = (field: string, maxBytes: number) =>
  new ApiError(400, 'fs_name_too_long', { field, max: maxBytes, cjk: Math.floor(maxBytes / 3) }, { field, issue: 'name_too_long', maxBytes });

export const badInput = (field: string, issue: string) => {
  if (issue === 'name_too_long') return nameTooLong(field, FS_NAME_MAX_BYTES);
  const specific = ISSUE_MESSAGES[issue];
  return new ApiError(400, specific?.key ?? 'invalid_input', { field, issue, ...specific?.params }, { field, issue });
};
export const notFound = (key: MessageKey = 'not_found') => new ApiError(404, key);
export const conflict = (key: MessageKey, field?: string) =>
  new ApiError(409, key, {}, field ? { field } : {});
