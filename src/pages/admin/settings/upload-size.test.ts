import { describe, expect, it } from 'vitest';
import { fromMegabytes, toMegabytes } from './upload-size';

describe('upload size units', () => {
  it('converts to megabytes', () => {
    expect(toMegabytes(512, 'KB')).toBe(0.5);
    expect(toMegabytes(100, 'MB')).toBe(100);
    expect(toMegabytes(2, 'GB')).toBe(2048);
  });
  it('picks a readable unit back', () => {
    expect(fromMegabytes(2048)).toEqual({ amount: 2, unit: 'GB' });
    expect(fromMegabytes(1536)).toEqual({ amount: 1536, unit: 'MB' });
    expect(fromMegabytes(0.5)).toEqual({ amount: 512, unit: 'KB' });
    expect(fromMegabytes(100)).toEqual({ amount: 100, unit: 'MB' });
  });
  it('round-trips', () => {
    for (const mb of [0.25, 1, 7.5, 100, 4096]) {
      const { amount, unit } = fromMegabytes(mb);
      expect(toMegabytes(amount, unit)).toBeCloseTo(mb, 6);
    }
  });
});
