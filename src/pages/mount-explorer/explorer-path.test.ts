import { describe, expect, it } from 'vitest';
import { crumbsOf, explorerHref, folderOfLocation, nameOf, nameProblem, parentOf } from './explorer-path';

describe('explorer paths', () => {
  it('reads the folder from the URL and writes it back, CJK, spaces, # and % included', () => {
    for (const folder of ['/', '/local/', '/local/照片 2024/', '/s3/a#b/100%/']) {
      expect(folderOfLocation(explorerHref(folder).split('?')[0]!)).toBe(folder);
    }
    expect(folderOfLocation('/mount-explorer')).toBe('/');
    expect(folderOfLocation('/mount-explorer/local//photos/')).toBe('/local/photos/');
    expect(explorerHref('/local/', 'a b.md')).toBe('/mount-explorer/local?preview=a+b.md');
  });

  it('names parents and crumbs', () => {
    expect(nameOf('/local/photos/')).toBe('photos');
    expect(nameOf('/local/a.txt')).toBe('a.txt');
    expect(parentOf('/local/photos/')).toBe('/local/');
    expect(parentOf('/local/')).toBe('/');
    expect(crumbsOf('/local/photos/')).toEqual([
      { name: 'local', path: '/local/' },
      { name: 'photos', path: '/local/photos/' },
    ]);
  });

  it('refuses names that are not one path segment', () => {
    expect(nameProblem('  ')).toBe('required');
    expect(nameProblem('..')).toBe('invalid');
    expect(nameProblem('a/b')).toBe('invalid');
    expect(nameProblem('a\\b')).toBe('invalid');
    expect(nameProblem('名'.repeat(86))).toBe('too_long');
    expect(nameProblem('report 2026.md')).toBeUndefined();
  });
});
