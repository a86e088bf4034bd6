import * as v from 'valibot';
import { fileShareSchema } from './files';
import { fsPathSchema } from './fs-paths';
import { fsItemSchema } from './fs';
import { pasteSummarySchema } from './pastes';

/**
 * Search (`/api/{admin,user}/fs/search`, `/api/{admin,user}/search/shares`, `/api/admin/fs/index*`): names in the
 * mounts' indexes, and pastes and file shares by their words. Matching is by substring, case-insensitive, so that
 * "port" finds "report.pdf" and "报告" finds "年度报告.docx".
 */

export const SEARCH_QUERY_MAX = 100;
export const FS_SEARCH_LIMIT_DEFAULT = 50;
export const FS_SEARCH_LIMIT_MAX = 200;
export const SHARE_SEARCH_LIMIT_DEFAULT = 20;
export const SHARE_SEARCH_LIMIT_MAX = 100;
/** A mount's rescan for changes made outside Clipstash: every this many minutes by default; 0 is off. */
export const INDEX_RESCAN_MINUTES_DEFAULT = 60;
export const INDEX_RESCAN_MINUTES_MAX = 7 * 24 * 60;

// NUL is refused: neither database takes it in a text parameter (FTS5 reads the phrase only up to it, PostgreSQL
// refuses the value), and no name or text to find holds one.
const queryText = v.pipe(
  v.string(),
  v.check((text) => !text.includes('\u0000'), 'invalid_character'),
  v.trim(),
  v.minLength(1, 'required'),
  v.maxLength(SEARCH_QUERY_MAX, 'too_long'),
);
const limitText = (fallback: number, max: number) =>
  v.optional(
    v.pipe(v.string(), v.regex(/^\d+$/, 'must_be_integer'), v.transform(Number), v.minValue(1, 'must_be_positive'), v.maxValue(max, 'too_large')),
    String(fallback),
  );

export const FS_SEARCH_TYPES = ['file', 'folder'] as const;
export const FS_SEARCH_ORDERS = ['best', 'newest'] as const;

export const fsSearchQuerySchema = v.object({
  q: queryText,
  /** Only results below this folder (a mount, a folder in it, or a virtual folder above mounts). */
  path: v.optional(fsPathSchema, '/'),
  type: v.optional(v.picklist(FS_SEARCH_TYPES, 'invalid_choice')),
  /** `best`: names that start with the words first, then shorter names; `newest`: last modified first. */
  order: v.optional(v.picklist(FS_SEARCH_ORDERS, 'invalid_choice'), 'best'),
  limit: limitText(FS_SEARCH_LIMIT_DEFAULT, FS_SEARCH_LIMIT_MAX),
  /** `nextCursor` of the previous page, as it came. */
  cursor: v.optional(v.pipe(v.string(), v.maxLength(500, 'too_long'))),
});
export type FsSearchQuery = v.InferInput<typeof fsSearchQuerySchema>;

export const fsSearchHitSchema = v.object({
  ...fsItemSchema.entries,
  /** The folder holding it (absolute, ends in `/`): "open in place" lists this folder. */
  folder: v.string(),
  mountId: v.string(),
});
export type FsSearchHit = v.InferOutput<typeof fsSearchHitSchema>;

export const INDEX_STATES = ['none', 'building', 'complete', 'failed'] as const;
export type IndexState = (typeof INDEX_STATES)[number];

/** A mount's index as the admin and searchers see it. */
export const mountIndexSchema = v.object({
  mountId: v.string(),
  mountPath: v.string(),
  /** `none`: never built; `building`: a build or rescan is walking it (results may miss files); `failed`: see error. */
  state: v.picklist(INDEX_STATES),
  /** Files and folders in the index. */
  entries: v.number(),
  /** Folders still to be read by the running build or rescan. */
  foldersPending: v.number(),
  /** When the last complete walk ended. */
  builtAt: v.nullable(v.string()),
  /** The reason of a failed build, in the caller's language. */
  error: v.nullable(v.string()),
  rescanMinutes: v.number(),
  nextRescanAt: v.nullable(v.string()),
});
export type MountIndex = v.InferOutput<typeof mountIndexSchema>;

export const fsSearchResultSchema = v.object({
  items: v.array(fsSearchHitSchema),
  /** Pass as `cursor` for the next page; null on the last. */
  nextCursor: v.nullable(v.string()),
  /** True when every mount searched has a complete index. */
  complete: v.boolean(),
  /** The searched mounts whose index is not complete: their files may be missing from the results. */
  incomplete: v.array(mountIndexSchema),
});
export type FsSearchResult = v.InferOutput<typeof fsSearchResultSchema>;

export const mountIndexListSchema = v.array(mountIndexSchema);

export const rebuildIndexRequestSchema = v.object({ mountId: v.pipe(v.string(), v.minLength(1, 'required')) });

export const updateIndexRequestSchema = v.object({
  rescanMinutes: v.pipe(v.number(), v.integer('must_be_integer'), v.minValue(0, 'must_not_be_negative'), v.maxValue(INDEX_RESCAN_MINUTES_MAX, 'too_large')),
});

export const shareSearchQuerySchema = v.object({
  q: queryText,
  limit: limitText(SHARE_SEARCH_LIMIT_DEFAULT, SHARE_SEARCH_LIMIT_MAX),
});

/** Pastes (by slug, remark and the text of plain pastes) and file shares (by slug, file name and remark), newest first. */
export const shareSearchResultSchema = v.object({
  pastes: v.array(pasteSummarySchema),
  files: v.array(fileShareSchema),
});
export type ShareSearchResult = v.InferOutput<typeof shareSearchResultSchema>;
