import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { customSlugSchema, RESERVED_SLUGS, slugProblem } from './slugs';

describe('slugProblem', () => {
  it.each(['a', 'abc-DEF_123', 'x'.repeat(50), 'admins', 'my-api', 'Paste1'])('accepts %j', (slug) => {
    expect(slugProblem(slug)).toBeUndefined();
  });

  it.each([
    ['', 'empty'],
    ['x'.repeat(51), 'too_long'],
    ['with space', 'invalid_characters'],
    ['a/b', 'invalid_characters'],
    ['a.b', 'invalid_characters'],
    ['ümlaut', 'invalid_characters'],
    ['.hidden', 'reserved'],
    ['.', 'reserved'],
    ['admin', 'reserved'],
    ['ADMIN', 'reserved'],
    ['mount-explorer', 'reserved'],
  ])('refuses %j as %s', (slug, problem) => {
    expect(slugProblem(slug)).toBe(problem);
  });

  it.each(RESERVED_SLUGS)('reserves %s', (slug) => {
    expect(slugProblem(slug)).toBe('reserved');
  });
});

describe('customSlugSchema', () => {
  it('trims and keeps a valid slug', () => {
    expect(v.parse(customSlugSchema, '  notes-1 ')).toBe('notes-1');
  });

  it('names the problem in the issue message', () => {
    const result = v.safeParse(customSlugSchema, 'api');
    expect(result.success).toBe(false);
    expect(result.issues?.[0]?.message).toBe('reserved');
  });
});
