import type { MessageRef } from '../i18n/messages';
import { log, withoutSecrets } from '../observability/log';

/**
 * Why a storage or system call failed, as far as a client may know. The error itself (its message can hold the
 * server's absolute paths, errno strings, the bucket's own words) stays in the server's log.
 */
export type FailureReason =
  | 'name_too_long'
  | 'permission_denied'
  | 'read_only'
  | 'no_space'
  | 'bucket_missing'
  | 'bad_credentials'
  | 'host_key_mismatch'
  | 'host_refused'
  | 'access_denied'
  | 'unreachable'
  | 'timeout'
  | 'folder_missing'
  | 'unknown';

const BY_CODE: Record<string, FailureReason> = {
  ENAMETOOLONG: 'name_too_long',
  KeyTooLongError: 'name_too_long',
  EACCES: 'permission_denied',
  EPERM: 'permission_denied',
  EROFS: 'read_only',
  ENOSPC: 'no_space',
  EDQUOT: 'no_space',
  InsufficientStorage: 'no_space',
  NoSuchBucket: 'bucket_missing',
  InvalidAccessKeyId: 'bad_credentials',
  SignatureDoesNotMatch: 'bad_credentials',
  InvalidToken: 'bad_credentials',
  ExpiredToken: 'bad_credentials',
  // A remote storage's server that refused the login (FTP 530, WebDAV 401, SSH).
  LoginRefused: 'bad_credentials',
  Unauthorized: 'bad_credentials',
  SSH_AUTH_FAILED: 'bad_credentials',
  SSH_KEY_UNREADABLE: 'bad_credentials',
  SSH_HOST_KEY_MISMATCH: 'host_key_mismatch',
  // The storage's host resolved, at connect time, to an address the SSRF guard refuses (storage/registry.ts).
  HostRefused: 'host_refused',
  AccessDenied: 'access_denied',
  Forbidden: 'access_denied',
  ECONNREFUSED: 'unreachable',
  ECONNRESET: 'unreachable',
  ENOTFOUND: 'unreachable',
  EAI_AGAIN: 'unreachable',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  ETIMEDOUT: 'timeout',
  TimeoutError: 'timeout',
  RequestTimeout: 'timeout',
  BaseFolderMissingError: 'folder_missing',
};

/** The codes an error carries: its own (`code`, S3's `Code`, its name), then its cause's, as fetch nests them. */
function codesOf(error: unknown, depth = 0): string[] {
  if (!(error instanceof Error) || depth > 3) return [];
  const e = error as Error & { code?: unknown; Code?: unknown; cause?: unknown };
  const own = [e.code, e.Code, e.name].filter((code): code is string => typeof code === 'string');
  return [...own, ...codesOf(e.cause, depth + 1)];
}

export function failureReasonOf(error: unknown): FailureReason {
  for (const code of codesOf(error)) {
    const reason = BY_CODE[code];
    if (reason) return reason;
  }
  const status = (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
  if (status === 403) return 'access_denied';
  return 'unknown';
}

/** The whole story of an error, for the server's log only: names, codes, messages and causes, secrets cut out. */
export function describeError(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 4; depth++) {
    if (!(current instanceof Error)) {
      parts.push(String(current));
      break;
    }
    const e = current as Error & { Code?: string; $metadata?: { httpStatusCode?: number } };
    const name = e.Code ?? e.name;
    const status = e.$metadata?.httpStatusCode;
    parts.push(`${name}: ${e.message}${status ? ` [HTTP ${status}]` : ''}`);
    current = e.cause;
  }
  return withoutSecrets(parts.join(' <- ')).slice(0, 2000);
}

/**
 * What a client is told of a failure: its reason, as a message in the client's language (a `{reason}` of the
 * answer's message). The error's details are logged here, once, where the answer is made.
 */
export function reasonOf(error: unknown): MessageRef & { reason: FailureReason } {
  const reason = failureReasonOf(error);
  log.warn(`Storage failure (${reason}): ${describeError(error)}`);
  return { messageKey: `reason_${reason}`, reason };
}
