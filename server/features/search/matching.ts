/**
 * How both searches turn a query into a match: a case-insensitive substring. Trigram indexes (SQLite's FTS5
 * `trigram` tokenizer, PostgreSQL's pg_trgm) serve queries of three characters or more; shorter ones (两字) are a
 * LIKE on the rows.
 */

/** Whether the trigram indexes can serve `query`. */
export const trigramsServe = (query: string) => Array.from(query).length >= 3;

const likeLiteral = (query: string) => query.replace(/[\\%_]/g, (char) => `\\${char}`);

/** `%query%` for `LIKE … escape '\'`, the query's own `%`, `_` and `\` taken literally. */
export const likePattern = (query: string) => `%${likeLiteral(query)}%`;

/** `query%` for `LIKE … escape '\'`: names that start with the query. */
export const likePrefix = (query: string) => `${likeLiteral(query)}%`;

/** The query as one FTS5 phrase: its characters in a row, `"` doubled, no operator of FTS5's syntax. */
export const ftsPhrase = (query: string) => `"${query.replaceAll('"', '""')}"`;
