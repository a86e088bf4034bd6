import { describe, expect, it } from 'vitest';
import { copyRunItems, failedCopyItems } from './explorer-tasks';

const failure = (path: string) => ({ path, error: { code: 'upload_failed' as const, status: 500 } });

describe('the copies a retry makes', () => {
  const items = [
    { sourcePath: '/local/a.txt', targetPath: '/s3/in/' },
    { sourcePath: '/local/photos/', targetPath: '/s3/in/' },
    { sourcePath: '/local/b.txt', targetPath: '/s3/renamed.txt' },
    { sourcePath: '/local/docs/', targetPath: '/s3/docs-copy' },
  ];

  it('only the failed ones, each to where the first run sent it', () => {
    expect(failedCopyItems(items, [failure('/local/b.txt'), failure('/local/a.txt')])).toEqual([items[2], items[0]]);
  });

  it('a failed file of a copied folder goes into the folder copy, at its place below it', () => {
    expect(failedCopyItems(items, [failure('/local/photos/2024/x.jpg'), failure('/local/docs/readme.md')])).toEqual([
      { sourcePath: '/local/photos/2024/x.jpg', targetPath: '/s3/in/photos/2024/x.jpg' },
      { sourcePath: '/local/docs/readme.md', targetPath: '/s3/docs-copy/readme.md' },
    ]);
  });

  it('a whole folder that failed is copied again whole; nothing failed, nothing to do', () => {
    expect(failedCopyItems(items, [failure('/local/photos')])).toEqual([items[1]]);
    expect(failedCopyItems(items, [])).toEqual([]);
  });
});

describe('the items of each run of a copy or move', () => {
  const items = [
    { sourcePath: '/local/photos/', targetPath: '/s3/' },
    { sourcePath: '/local/a.txt', targetPath: '/s3/' },
  ];

  it('the first run sends every item and asks about taken names', () => {
    expect(copyRunItems(items, undefined, undefined)).toEqual(items.map((item) => ({ ...item, onConflict: 'fail' })));
  });

  it('after the decision: failures worth a retry as before, conflicts with their choice; other refusals left', () => {
    const previous = {
      succeeded: [],
      skipped: [],
      failed: [
        { path: '/local/a.txt', error: { code: 'network' as const } },
        { path: '/local/photos/huge.raw', error: { code: 'too_large' as const, status: 413 } },
      ],
      conflicts: [
        { path: '/local/photos/same.jpg', targetPath: '', identical: true },
        { path: '/local/photos/new.jpg', targetPath: '', identical: false },
      ],
    };
    const resolution = { decision: { choice: 'replace' as const, skipIdentical: true }, conflicts: previous.conflicts };
    expect(copyRunItems(items, previous, resolution)).toEqual([
      { sourcePath: '/local/a.txt', targetPath: '/s3/', onConflict: 'fail' },
      { sourcePath: '/local/photos/same.jpg', targetPath: '/s3/photos/same.jpg', onConflict: 'skip' },
      { sourcePath: '/local/photos/new.jpg', targetPath: '/s3/photos/new.jpg', onConflict: 'replace' },
    ]);
  });
});
