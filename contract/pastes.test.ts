import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  createPasteRequestSchema,
  offsetQuerySchema,
  PASTE_CONTENT_MAX_BYTES,
  pageQuerySchema,
  updatePasteRequestSchema,
} from './pastes';

const issueOf = (schema: v.GenericSchema, input: unknown) => {
  const result = v.safeParse(schema, input);
  return result.success ? undefined : { path: v.getDotPath(result.issues[0]), message: result.issues[0].message };
};

describe('createPasteRequestSchema', () => {
  it('defaults maxViews to 0 and normalises the expiry to UTC', () => {
    expect(v.parse(createPasteRequestSchema, { content: 'x', expiresAt: '2031-06-01T12:00:00+02:00' })).toEqual({
      content: 'x',
      maxViews: 0,
      expiresAt: '2031-06-01T10:00:00.000Z',
    });
  });

  it('keeps the content exactly as sent', () => {
    expect(v.parse(createPasteRequestSchema, { content: '  padded\n' }).content).toBe('  padded\n');
  });

  it.each([
    [{ content: '' }, 'content', 'required'],
    [{ content: '   ' }, 'content', 'required'],
    [{ content: 'x'.repeat(PASTE_CONTENT_MAX_BYTES + 1) }, 'content', 'too_large'],
    [{ content: 'x', maxViews: -1 }, 'maxViews', 'must_not_be_negative'],
    [{ content: 'x', maxViews: 2.5 }, 'maxViews', 'must_be_integer'],
    [{ content: 'x', slug: 'admin' }, 'slug', 'reserved'],
    [{ content: 'x', expiresAt: 'soon' }, 'expiresAt', 'invalid_date'],
    [{ content: 'x', password: '' }, 'password', 'required'],
  ])('refuses %j at %s (%s)', (input, path, message) => {
    expect(issueOf(createPasteRequestSchema, input)).toEqual({ path, message });
  });

  it('counts the content limit in UTF-8 bytes', () => {
    expect(v.is(createPasteRequestSchema, { content: 'é'.repeat(PASTE_CONTENT_MAX_BYTES / 2) })).toBe(true);
    expect(v.is(createPasteRequestSchema, { content: 'é'.repeat(PASTE_CONTENT_MAX_BYTES / 2 + 1) })).toBe(false);
  });
});

describe('updatePasteRequestSchema', () => {
  it('accepts an empty change and a null password or expiry (clear)', () => {
    expect(v.parse(updatePasteRequestSchema, {})).toEqual({});
    expect(v.parse(updatePasteRequestSchema, { password: null, expiresAt: null })).toEqual({
      password: null,
      expiresAt: null,
    });
  });
});

describe('list queries', () => {
  it('default to page 1, 10 a page, offset 0', () => {
    expect(v.parse(pageQuerySchema, {})).toEqual({ page: 1, limit: 10 });
    expect(v.parse(offsetQuerySchema, {})).toEqual({ limit: 10, offset: 0 });
  });

  it.each([
    [pageQuerySchema, { page: '0' }, 'page', 'must_be_positive'],
    [pageQuerySchema, { limit: '101' }, 'limit', 'too_large'],
    [pageQuerySchema, { page: '-1' }, 'page', 'must_be_integer'],
    [offsetQuerySchema, { offset: '1e3' }, 'offset', 'must_be_integer'],
    [offsetQuerySchema, { offset: '9007199254740993' }, 'offset', 'too_large'],
  ])('refuses %#: %j', (schema, input, path, message) => {
    expect(issueOf(schema, input)).toEqual({ path, message });
  });
});
