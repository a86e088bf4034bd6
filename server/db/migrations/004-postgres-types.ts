import type { Kysely, Migration } from 'kysely';
import { addInsertionOrder, widenToBigint } from '../dialect';

/**
 * What PostgreSQL needs to hold what SQLite holds (nothing changes on SQLite): byte counts as 64-bit integers, and
 * an insertion order for the lists that break ties between rows of the same millisecond by it.
 */
export const postgresTypes: Migration = {
  async up(db: Kysely<unknown>) {
    await widenToBigint(db, 'files', 'size');
    await widenToBigint(db, 'files', 'part_size');
    await widenToBigint(db, 'storage_configs', 'total_storage_bytes');
    await addInsertionOrder(db, 'pastes');
    await addInsertionOrder(db, 'files');
  },
};
