import { describe, expect, it } from 'vitest';
import { FS_NAME_MAX_BYTES } from '../../../contract/fs-paths';
import { numberedName } from './free-names';

describe('numberedName', () => {
  it('numbers before the extension, or at the end of a name without one', () => {
    expect(numberedName('photo.jpg', 0)).toBe('photo.jpg');
    expect(numberedName('photo.jpg', 1)).toBe('photo (1).jpg');
    expect(numberedName('archive.tar.gz', 12)).toBe('archive.tar (12).gz');
    expect(numberedName('README', 2)).toBe('README (2)');
    expect(numberedName('.env', 1)).toBe('.env (1)');
  });

  it('a name at the storage limit loses the end of its stem, by whole characters, so that its number fits', () => {
    const longest = `${'é'.repeat(125)}x.txt`; // 250 + 1 + 4 bytes
    expect(Buffer.byteLength(longest)).toBe(FS_NAME_MAX_BYTES);
    const renamed = numberedName(longest, 1);
    expect(Buffer.byteLength(renamed)).toBeLessThanOrEqual(FS_NAME_MAX_BYTES);
    expect(renamed).toMatch(/^é+ \(1\)\.txt$/);
    expect(renamed).not.toContain('\uFFFD');
    expect(numberedName(longest, 10_000).endsWith(' (10000).txt')).toBe(true);
  });
});
