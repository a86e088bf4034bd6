import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  createApiKeyRequestSchema,
  customKeySchema,
  isCleanAbsolutePath,
  normalizeBasicPath,
  updateApiKeyRequestSchema,
} from './api-keys';
import { normalizeIsoTimestamp } from './time';

describe('isCleanAbsolutePath', () => {
  it.each(['/', '/local', '/local/team', '/a/b.c/d..e'])('accepts %j', (path) => {
    expect(isCleanAbsolutePath(path)).toBe(true);
  });
  it.each(['', 'local', '/local/', '//', '/a//b', '/a/./b', '/a/../b', '/..', '/.'])('refuses %j', (path) => {
    expect(isCleanAbsolutePath(path)).toBe(false);
  });
});

describe('normalizeBasicPath', () => {
  it.each([
    ['/local/dir/', '/local/dir'],
    ['/local/', '/local'],
    ['/local', '/local'],
    ['/', '/'],
  ])('%j → %j', (path, stored) => {
    expect(normalizeBasicPath(path)).toBe(stored);
  });

  it('takes a trailing slash on create and update, and still refuses what is not a clean path', () => {
    expect(v.parse(createApiKeyRequestSchema, { name: 'x', basic_path: ' /local/dir/ ' }).basic_path).toBe('/local/dir');
    expect(v.parse(updateApiKeyRequestSchema, { basic_path: '/local/dir/' }).basic_path).toBe('/local/dir');
    for (const path of ['local/', '/local//', '/a/../b/', '/./', '']) {
      expect(v.safeParse(updateApiKeyRequestSchema, { basic_path: path }).success, path).toBe(false);
    }
  });
});

describe('customKeySchema', () => {
  it.each(['abcdefgh', 'A-b_C-d_1234', 'z'.repeat(64)])('accepts %j', (key) => {
    expect(v.is(customKeySchema, key)).toBe(true);
  });
  it.each(['abcdefg', 'z'.repeat(65), 'abc defgh', 'abcdefgh!', 'abcdéfgh'])('refuses %j', (key) => {
    expect(v.is(customKeySchema, key)).toBe(false);
  });
});

describe('normalizeIsoTimestamp', () => {
  it.each([
    ['2031-06-01T12:00:00Z', '2031-06-01T12:00:00.000Z'],
    ['2031-06-01T12:00:00.5Z', '2031-06-01T12:00:00.500Z'],
    ['2031-06-01 12:00:00Z', '2031-06-01T12:00:00.000Z'],
    ['2031-06-01T12:00:00+02:00', '2031-06-01T10:00:00.000Z'],
    ['2031-06-01T12:00:00+0200', '2031-06-01T10:00:00.000Z'],
    ['2031-06-01T12:00:00+02', '2031-06-01T10:00:00.000Z'],
    ['2031-06-01T12:00:00-05:30', '2031-06-01T17:30:00.000Z'],
    ['2028-02-29T00:00:00Z', '2028-02-29T00:00:00.000Z'],
  ])('%s → %s', (input, output) => {
    expect(normalizeIsoTimestamp(input)).toBe(output);
  });

  it.each(['2031-02-29T00:00:00Z', '2031-04-31T00:00:00Z', '2031-13-01T00:00:00Z', 'tomorrow', ''])('refuses %j', (input) => {
    expect(normalizeIsoTimestamp(input)).toBeUndefined();
  });
});

describe('createApiKeyRequestSchema', () => {
  it('fills the defaults', () => {
    expect(v.parse(createApiKeyRequestSchema, { name: ' ci ' })).toEqual({
      name: 'ci',
      expires_at: null,
      text_permission: false,
      file_permission: false,
      mount_permission: false,
      expense_permission: false,
      basic_path: '/',
    });
  });

  it('gives expires_at in canonical UTC form', () => {
    const parsed = v.parse(createApiKeyRequestSchema, { name: 'x', expires_at: '2031-01-01T01:00:00+01' });
    expect(parsed.expires_at).toBe('2031-01-01T00:00:00.000Z');
    expect(v.parse(updateApiKeyRequestSchema, { expires_at: '2031-01-01T01:00:00+01:00' }).expires_at).toBe(
      '2031-01-01T00:00:00.000Z',
    );
  });

  it('refuses impossible dates with invalid_date', () => {
    const result = v.safeParse(createApiKeyRequestSchema, { name: 'x', expires_at: '2031-02-31T00:00:00Z' });
    expect(result.success).toBe(false);
    expect(result.issues?.[0]?.message).toBe('invalid_date');
  });
});
