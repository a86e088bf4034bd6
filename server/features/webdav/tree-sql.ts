import { sql, type ExpressionBuilder } from 'kysely';
import type { Database } from '../../db/schema';

type PathTable = 'dav_properties' | 'dav_locks';

/**
 * Rows of `path` and everything below it, without LIKE (whose `%` and `_` are ordinary characters in file names).
 * `substr` and `length` are spelled alike in SQLite and PostgreSQL and count characters in both.
 */
export const inTree =
  <T extends PathTable>(path: string) =>
  (eb: ExpressionBuilder<Database, T>) => {
    if (path === '/') return eb.lit(true);
    const prefix = `${path}/`;
    return eb.or([eb(sql.ref('path'), '=', path), eb(sql<string>`substr(path, 1, ${prefix.length})`, '=', prefix)]);
  };

/** A path of the tree at `from`, re-rooted at `to`. */
export const movedPath = (path: string, from: string, to: string) => (path === from ? to : `${to}${path.slice(from.length)}`);
