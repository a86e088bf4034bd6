import * as v from 'valibot';
import { offsetPaginationSchema, offsetQuery } from './lists';

/**
 * A share's access log (`GET /api/{admin,user}/{pastes,files}/{slug}/access-log`): each view of a paste, each
 * download of a file share and each peek (`HEAD`) at either, as the server recorded it.
 */

/** `view`: the content or bytes were answered; `peek`: a `HEAD` that spent nothing. */
export const ACCESS_KINDS = ['view', 'peek'] as const;
export type AccessKind = (typeof ACCESS_KINDS)[number];

export const accessLogEntrySchema = v.object({
  at: v.string(),
  /** The visitor's address, truncated to its network (`203.0.113.0/24`, `2001:db8:1::/48`) unless the admin keeps full ones; '' when unknown. */
  ip: v.string(),
  userAgent: v.string(),
  kind: v.picklist(ACCESS_KINDS),
  /** Bytes of content answered (0 for a peek), of all `count` accesses together. */
  bytes: v.number(),
  /** The answer went out whole; false when the visitor went away mid-download. */
  completed: v.boolean(),
  /** Accesses this entry stands for: identical ones (same kind, address, user agent and outcome) within one second are one entry. */
  count: v.number(),
});
export type AccessLogEntry = v.InferOutput<typeof accessLogEntrySchema>;

/** Accesses of one UTC day (`YYYY-MM-DD`). */
export const accessLogDaySchema = v.object({ day: v.string(), views: v.number(), peeks: v.number() });
export type AccessLogDay = v.InferOutput<typeof accessLogDaySchema>;

export const accessLogSchema = v.object({
  /** Newest first. */
  items: v.array(accessLogEntrySchema),
  pagination: offsetPaginationSchema,
  /** Every day with an access in the log, oldest first. */
  days: v.array(accessLogDaySchema),
  /** The newest view (peeks aside); null when nobody opened it yet. */
  lastOpenedAt: v.nullable(v.string()),
});
export type AccessLog = v.InferOutput<typeof accessLogSchema>;

export const ACCESS_LOG_PAGE_SIZE = 20;
export const ACCESS_LOG_PAGE_SIZE_MAX = 200;

/** `?limit&offset`, and `format=csv` for the whole log as a file (as `…/access-log.csv`). */
export const accessLogQuerySchema = v.object({
  ...offsetQuery(ACCESS_LOG_PAGE_SIZE, ACCESS_LOG_PAGE_SIZE_MAX).entries,
  format: v.optional(v.picklist(['json', 'csv'], 'invalid_choice'), 'json'),
});

/** The retention setting: days an access stays in the log. */
export const DEFAULT_ACCESS_LOG_RETENTION_DAYS = 90;
export const MAX_ACCESS_LOG_RETENTION_DAYS = 3650;
