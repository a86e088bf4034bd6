import { describe, expect, it } from 'vitest';
import { refusalsOfChoice } from './file-requests';

const request = {
  max_files: 3,
  max_file_size: 150,
  max_total_size: 250,
  allowed_types: ['.pdf', '.png'],
  files_received: 1,
  bytes_received: 50,
};
const file = (name: string, size: number) => ({ name, size });

describe('refusalsOfChoice', () => {
  it('refuses by the per-file limits first, then by the room left in files and bytes, in order', () => {
    const choice = [file('a.pdf', 90), file('big.pdf', 151), file('notes.txt', 10), file('b.png', 120), file('c.png', 20), file('d.pdf', 5)];
    expect(refusalsOfChoice(choice, request).map(({ file, refusal }) => [file.name, refusal])).toEqual([
      ['a.pdf', undefined],
      ['big.pdf', 'too_large'],
      ['notes.txt', 'type_not_allowed'],
      ['b.png', 'over_total'],
      ['c.png', undefined],
      ['d.pdf', 'too_many_files'],
    ]);
  });

  it('refuses nothing without limits', () => {
    const open = { max_files: null, max_file_size: null, max_total_size: null, allowed_types: [], files_received: 40, bytes_received: 1e9 };
    expect(refusalsOfChoice([file('x.bin', 1e9), file('y', 0)], open).every(({ refusal }) => refusal === undefined)).toBe(true);
  });
});
