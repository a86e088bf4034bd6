import { describe, expect, it } from 'vitest';
import { FS_UPLOAD_GROUP_MAX_FILES } from '../../contract/fs';
import { MULTIPART_THRESHOLD } from '../../contract/parts';
import type { BatchFile } from '../../contract/transfer';
import { GROUP_LIMITS, planBatch, unitBytes } from './batch';

/** A batch file of `size` bytes (File only needs a size here). */
const entry = (relativePath: string, size: number): BatchFile => ({ relativePath, file: { size, name: relativePath.split('/').pop() } as File });

const paths = (units: ReturnType<typeof planBatch>) =>
  units.map((unit) => (unit.kind === 'group' ? unit.files.map((file) => file.relativePath) : [`large:${unit.file.relativePath}`]));

describe('planBatch', () => {
  it('groups small files in their order, closing a group at its file or byte limit', () => {
    const files = Array.from({ length: 10 }, (_, index) => entry(`dir/f${index}.txt`, 100));
    expect(paths(planBatch(files, new Set(), { files: 4, bytes: 10_000 }))).toEqual([
      ['dir/f0.txt', 'dir/f1.txt', 'dir/f2.txt', 'dir/f3.txt'],
      ['dir/f4.txt', 'dir/f5.txt', 'dir/f6.txt', 'dir/f7.txt'],
      ['dir/f8.txt', 'dir/f9.txt'],
    ]);
    expect(paths(planBatch(files, new Set(), { files: 100, bytes: 250 }))).toEqual([
      ['dir/f0.txt', 'dir/f1.txt'],
      ['dir/f2.txt', 'dir/f3.txt'],
      ['dir/f4.txt', 'dir/f5.txt'],
      ['dir/f6.txt', 'dir/f7.txt'],
      ['dir/f8.txt', 'dir/f9.txt'],
    ]);
  });

  it('sends a file over the multipart threshold alone, and a group may still hold one file over the byte limit', () => {
    const files = [entry('a', 10), entry('big', MULTIPART_THRESHOLD + 1), entry('b', 10), entry('c', MULTIPART_THRESHOLD)];
    const units = planBatch(files, new Set(), { files: 64, bytes: 1000 });
    expect(paths(units)).toEqual([['large:big'], ['a', 'b'], ['c']]);
    expect(units.map(unitBytes)).toEqual([MULTIPART_THRESHOLD + 1, 20, MULTIPART_THRESHOLD]);
  });

  it('leaves out what the journal saw acknowledged, so that a resume sends only the rest', () => {
    const files = Array.from({ length: 6 }, (_, index) => entry(`f${index}`, 10));
    expect(paths(planBatch(files, new Set(['f0', 'f1', 'f4']), { files: 2, bytes: 1000 }))).toEqual([['f2', 'f3'], ['f5']]);
    expect(planBatch(files, new Set(files.map((file) => file.relativePath)))).toEqual([]);
  });

  it('needs a few dozen requests for 10,000 small files, within the server’s limit per request', () => {
    const files = Array.from({ length: 10_000 }, (_, index) => entry(`f${index}`, 1000 + (index % 3000)));
    const units = planBatch(files, new Set());
    expect(GROUP_LIMITS.files).toBeLessThanOrEqual(FS_UPLOAD_GROUP_MAX_FILES);
    expect(units.length).toBeLessThanOrEqual(Math.ceil(10_000 / GROUP_LIMITS.files) + 5);
    expect(units.every((unit) => unit.kind === 'group' && unit.files.length <= GROUP_LIMITS.files && unit.bytes <= GROUP_LIMITS.bytes)).toBe(true);
    expect(units.flatMap((unit) => (unit.kind === 'group' ? unit.files : [])).length).toBe(10_000);
  });
});
