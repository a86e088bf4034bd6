import { RANDOM_SLUG_LENGTH, SLUG_MAX, slugProblem } from '../../../contract/slugs';
import type { DB } from '../../db/database';
import { isUniqueViolation } from '../../db/dialect';
import { badInput, conflict } from '../../errors';
import { randomBase62 } from '../../security/tokens';

/** Tables with their own slug space: pastes now, files later. Each has `id` and a unique `slug`. */
export type SlugTable = 'pastes' | 'files' | 'file_requests';

/** How many random slugs of one length are tried before the length grows by one. */
export const ATTEMPTS_PER_LENGTH = 3;

export const slugTaken = () => conflict('slug_taken', 'slug');

/** True when another row of the table (not `exceptId`) already has this slug. */
export async function isSlugTaken(db: DB, table: SlugTable, slug: string, exceptId?: string): Promise<boolean> {
  let query = db.selectFrom(table).select('id').where('slug', '=', slug);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** A custom slug: 400 (field `slug`) when the contract refuses it, 409 when the table already has it. */
export async function assertSlugFree(db: DB, table: SlugTable, slug: string, exceptId?: string): Promise<void> {
  const problem = slugProblem(slug);
  if (problem) throw badInput('slug', problem);
  if (await isSlugTaken(db, table, slug, exceptId)) throw slugTaken();
}

/** Whether the editor may use this slug right now: valid and free. */
export async function isSlugAvailable(db: DB, table: SlugTable, slug: string): Promise<boolean> {
  return slugProblem(slug) === undefined && !(await isSlugTaken(db, table, slug));
}

/**
 * A free random slug: 6 base62 characters, a few tries per length, then one character longer.
 * Random text that happens to be reserved (`upload`, `public`…) is skipped like a taken one.
 */
export async function generateSlug(
  db: DB,
  table: SlugTable,
  random: (length: number) => string = randomBase62,
): Promise<string> {
  for (let length = RANDOM_SLUG_LENGTH; length <= SLUG_MAX; length++) {
    for (let attempt = 0; attempt < ATTEMPTS_PER_LENGTH; attempt++) {
      const slug = random(length);
      if (slugProblem(slug) === undefined && !(await isSlugTaken(db, table, slug))) return slug;
    }
  }
  throw new Error(`No free slug in ${table}`);
}

/** The UNIQUE violation the database raises when two writers race for one slug after both checked it free. */
export const isSlugConflict = (error: unknown, table: SlugTable): boolean => isUniqueViolation(error, table, 'slug');

/** Runs a write of a chosen slug: a writer that took the slug since it was checked free makes it the usual 409. */
export async function slugConflictsAs409<T>(table: SlugTable, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isSlugConflict(error, table)) throw slugTaken();
    throw error;
  }
}

/**
 * Runs `write` (an insert) with the requested slug, or with a random one when none is requested.
 * A custom slug that is taken, even by a writer that won a race, is a 409; a random one that lost a race is
 * simply drawn again.
 */
export async function writeWithSlug<T>(
  db: DB,
  table: SlugTable,
  requested: string | undefined,
  write: (slug: string) => Promise<T>,
  random?: (length: number) => string,
): Promise<T> {
  if (requested !== undefined) {
    await assertSlugFree(db, table, requested);
    return slugConflictsAs409(table, () => write(requested));
  }
  for (let attempt = 1; ; attempt++) {
    const slug = await generateSlug(db, table, random);
    try {
      return await write(slug);
    } catch (error) {
      if (!isSlugConflict(error, table) || attempt >= ATTEMPTS_PER_LENGTH) throw error;
    }
  }
}
