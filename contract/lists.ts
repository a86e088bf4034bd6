import * as v from 'valibot';

/** `?page&limit` lists answer with this. */
export const pagePaginationSchema = v.object({
  total: v.number(),
  page: v.number(),
  limit: v.number(),
  totalPages: v.number(),
});

/** `?limit&offset` lists answer with this. */
export const offsetPaginationSchema = v.object({
  total: v.number(),
  limit: v.number(),
  offset: v.number(),
  hasMore: v.boolean(),
});

const positiveIntText = (fallback: number, max: number) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'must_be_integer'),
      v.transform(Number),
      v.minValue(1, 'must_be_positive'),
      v.maxValue(max, 'too_large'),
    ),
    String(fallback),
  );

export const pageQuery = (defaultLimit: number, maxLimit: number) =>
  v.object({
    page: positiveIntText(1, 1_000_000),
    limit: positiveIntText(defaultLimit, maxLimit),
  });

export const offsetQuery = (defaultLimit: number, maxLimit: number) =>
  v.object({
    limit: positiveIntText(defaultLimit, maxLimit),
    // Bounded: SQLite refuses an OFFSET it cannot hold as a 64-bit integer (a 500 instead of a 400).
    offset: v.optional(
      v.pipe(v.string(), v.regex(/^\d+$/, 'must_be_integer'), v.transform(Number), v.maxValue(Number.MAX_SAFE_INTEGER, 'too_large')),
      '0',
    ),
  });

export const batchDeleteRequestSchema = v.object({
  ids: v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.minLength(1, 'required'), v.maxLength(1000, 'too_many')),
});
/** `failed`: records kept because their storage object could not be deleted (file batch deletes only). */
export const batchDeleteResultSchema = v.object({ deleted: v.number(), missing: v.number(), failed: v.optional(v.number()) });
