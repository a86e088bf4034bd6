import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { childOf, displayPath, FS_NAME_MAX_BYTES, FS_PATH_MAX_BYTES, fsPathSchema, isWithin, nameOf, parentOf, parseFsName, parseFsPath, ROOT } from './fs-paths';

/** The normalised text of a path the rules accept. */
const textOf = (raw: string) => {
  const path = parseFsPath(raw);
  if (!path.ok) throw new Error(`refused ${raw}: ${path.issue}`);
  return path.value.text;
};
const issueOf = (raw: string) => {
  const path = parseFsPath(raw);
  return path.ok ? undefined : path.issue;
};

describe('parseFsPath', () => {
  it('normalises separators, duplicate slashes, `.` and `..`', () => {
    expect(textOf('/a/b')).toBe('/a/b');
    expect(textOf('a/b/')).toBe('/a/b');
    expect(textOf('\\a\\b')).toBe('/a/b');
    expect(textOf('//a///b//')).toBe('/a/b');
    expect(textOf('/a/./b/.')).toBe('/a/b');
    expect(textOf('/a/x/../b')).toBe('/a/b');
    expect(textOf('/a/b/..')).toBe('/a');
    expect(textOf('')).toBe('/');
    expect(textOf('/')).toBe('/');
  });

  it('never climbs above the root', () => {
    for (const raw of ['..', '/..', '/a/../..', '../a', '/a/..\\..\\b']) expect(issueOf(raw)).toBe('invalid_path');
  });

  it('keeps percent escapes and look-alike dots as names: a path is decoded once, before it gets here', () => {
    expect(textOf('/a/%2e%2e/b')).toBe('/a/%2e%2e/b');
    expect(textOf('/a/..%2fb')).toBe('/a/..%2fb');
    expect(textOf('/a/\uff0e\uff0e/b')).toBe('/a/\uff0e\uff0e/b');
    expect(textOf('/a/.../b')).toBe('/a/.../b');
  });

  it('refuses NUL and other control characters', () => {
    for (const raw of ['/a\u0000/b', '/a/\u0000', '/a/line\nbreak', '/a/\u007f', '/a/\u0085']) expect(issueOf(raw)).toBe('invalid_path');
  });

  it('makes names NFC, so one name typed on two systems is one file', () => {
    expect(textOf('/a/e\u0301')).toBe('/a/\u00e9');
  });

  it('refuses over-long names and paths by their UTF-8 bytes, and deep nesting', () => {
    expect(textOf(`/a/${'x'.repeat(FS_NAME_MAX_BYTES)}`)).toBe(`/a/${'x'.repeat(FS_NAME_MAX_BYTES)}`);
    expect(issueOf(`/a/${'x'.repeat(FS_NAME_MAX_BYTES + 1)}`)).toBe('name_too_long');
    // 128 two-byte characters: 128 characters but 256 bytes.
    expect(issueOf(`/a/${'é'.repeat(128)}`)).toBe('name_too_long');
    const longest = `/${'x'.repeat(FS_NAME_MAX_BYTES)}`.repeat(FS_PATH_MAX_BYTES / (FS_NAME_MAX_BYTES + 1));
    expect(textOf(longest)).toBe(longest);
    expect(issueOf(`${longest}/y`)).toBe('too_long');
    // 2,176 characters but 4,335 bytes.
    expect(issueOf(`/${'é'.repeat(127)}`.repeat(17))).toBe('too_long');
    expect(textOf('/a'.repeat(64)).length).toBe(128);
    expect(issueOf('/a'.repeat(65))).toBe('too_deep');
  });

  it('notes a trailing slash as a folder', () => {
    const folder = parseFsPath('/a/b/');
    const file = parseFsPath('/a/b');
    expect(folder.ok && folder.value).toEqual({ text: '/a/b', segments: ['a', 'b'], folderHint: true });
    expect(file.ok && file.value).toEqual({ text: '/a/b', segments: ['a', 'b'], folderHint: false });
  });
});

describe('fsPathSchema', () => {
  it('answers an FsPath, or the refusal as the issue message', () => {
    expect(v.parse(fsPathSchema, '/a//b/../c')).toEqual({ text: '/a/c', segments: ['a', 'c'], folderHint: false });
    const refused = v.safeParse(v.object({ path: fsPathSchema }), { path: '/../etc' });
    expect(refused.success).toBe(false);
    expect(refused.issues?.map((issue) => [v.getDotPath(issue), issue.message])).toEqual([['path', 'invalid_path']]);
    expect(v.safeParse(fsPathSchema, 5).success).toBe(false);
  });
});

describe('parseFsName', () => {
  it('accepts one name, in NFC', () => {
    expect(parseFsName('notes.md')).toEqual({ ok: true, value: 'notes.md' });
    expect(parseFsName('e\u0301')).toEqual({ ok: true, value: '\u00e9' });
  });

  it('refuses empty names, separators, `.`, `..`, control characters and over-long names', () => {
    for (const name of ['', '.', '..', 'a/b', 'a\\b', 'a\u0000b']) expect(parseFsName(name)).toEqual({ ok: false, issue: 'invalid_name' });
    expect(parseFsName('x'.repeat(FS_NAME_MAX_BYTES + 1))).toEqual({ ok: false, issue: 'name_too_long' });
  });
});

describe('path relations', () => {
  const path = (raw: string) => {
    const parsed = parseFsPath(raw);
    if (!parsed.ok) throw new Error(raw);
    return parsed.value;
  };

  it('isWithin: a folder holds itself and what is below it, not its neighbours', () => {
    expect(isWithin('/a', '/a')).toBe(true);
    expect(isWithin('/a/b', '/a')).toBe(true);
    expect(isWithin(path('/a/b/c'), path('/a'))).toBe(true);
    expect(isWithin('/ab', '/a')).toBe(false);
    expect(isWithin('/a', '/a/b')).toBe(false);
    expect(isWithin('/anything', ROOT)).toBe(true);
  });

  it('parentOf, childOf, nameOf and displayPath', () => {
    expect(parentOf(path('/a/b'))).toEqual({ text: '/a', segments: ['a'], folderHint: true });
    expect(parentOf(path('/a')).text).toBe('/');
    expect(childOf(path('/a'), 'b')).toEqual({ text: '/a/b', segments: ['a', 'b'], folderHint: false });
    expect(nameOf(path('/a/b.txt'))).toBe('b.txt');
    expect(nameOf(ROOT)).toBe('');
    expect(displayPath(path('/a'), true)).toBe('/a/');
    expect(displayPath('/a', false)).toBe('/a');
    expect(displayPath(ROOT, true)).toBe('/');
  });
});
