import type { StatusCode } from 'hono/utils/http-status';

/**
 * A WebDAV answer other than success: a status and, where RFC 4918 names one, the precondition element that
 * goes in the `DAV:error` body (`lock-token-submitted`, `propfind-finite-depth`, …).
 */
export class DavError extends Error {
  constructor(
    readonly status: StatusCode,
    readonly condition?: string,
    detail?: string,
  ) {
    super(detail ?? condition ?? String(status));
    this.name = 'DavError';
  }
}
