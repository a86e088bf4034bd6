import * as v from 'valibot';

export const SLUG_MAX = 50;
export const SLUG_PATTERN = /^[A-Za-z0-9_-]{1,50}$/;
export const RANDOM_SLUG_LENGTH = 6;

/** Paths of the app and the API a share link must never shadow. */
export const RESERVED_SLUGS = [
  'admin', 'api', 'paste', 'file', 'files', 'raw', 'upload', 'mount-explorer', 'expense', 'dav', 'assets',
  'static', 'public', 'health', 'version', 'login', 'logout', 'user', 's3', 'url',
] as const;

export type SlugProblem = 'too_long' | 'invalid_characters' | 'reserved' | 'empty';

/** Why a custom slug cannot be used, or undefined when it can (availability aside). */
export function slugProblem(slug: string): SlugProblem | undefined {
  if (slug.length === 0) return 'empty';
  if (slug.length > SLUG_MAX) return 'too_long';
  // Before the pattern, which refuses `.` anyway: a leading dot is reserved, and the editor should say so.
  if (slug.startsWith('.')) return 'reserved';
  if (!SLUG_PATTERN.test(slug)) return 'invalid_characters';
  if ((RESERVED_SLUGS as readonly string[]).includes(slug.toLowerCase())) return 'reserved';
  return undefined;
}

export const customSlugSchema = v.pipe(
  v.string(),
  v.trim(),
  v.check((slug) => slugProblem(slug) === undefined, (issue) => slugProblem(String(issue.input)) ?? 'invalid'),
);

export const slugAvailabilitySchema = v.object({ slug: v.string(), available: v.boolean() });
