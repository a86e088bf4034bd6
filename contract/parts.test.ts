import { describe, expect, it } from 'vitest';
import { MAX_PART_COUNT, MIN_PART_BYTES, partRange, planUpload } from './parts';

const MIB = 1024 * 1024;

describe('planUpload', () => {
  it('uses 5 MiB parts (5,242,880 bytes)', () => {
    expect(MIN_PART_BYTES).toBe(5_242_880);
    expect(planUpload(60 * MIB)).toEqual({ partSize: MIN_PART_BYTES, partCount: 12 });
    expect(planUpload(60 * MIB + 1)).toEqual({ partSize: MIN_PART_BYTES, partCount: 13 });
  });

  it('plans one part for tiny and empty files', () => {
    expect(planUpload(1)).toEqual({ partSize: MIN_PART_BYTES, partCount: 1 });
    expect(planUpload(0)).toEqual({ partSize: MIN_PART_BYTES, partCount: 1 });
  });

  it('stays at 5 MiB up to exactly 10,000 parts', () => {
    expect(planUpload(MIN_PART_BYTES * MAX_PART_COUNT)).toEqual({ partSize: MIN_PART_BYTES, partCount: MAX_PART_COUNT });
  });

  it('grows the part size to a whole MiB past 10,000 parts, never exceeding 10,000', () => {
    const size = MIN_PART_BYTES * MAX_PART_COUNT + 1;
    const plan = planUpload(size);
    expect(plan.partSize).toBe(6 * MIB);
    expect(plan.partSize % MIB).toBe(0);
    expect(plan.partCount).toBeLessThanOrEqual(MAX_PART_COUNT);
    const huge = 5 * 1024 ** 4; // 5 TiB, S3's object limit
    const hugePlan = planUpload(huge);
    expect(hugePlan.partCount).toBeLessThanOrEqual(MAX_PART_COUNT);
    expect(hugePlan.partSize * hugePlan.partCount).toBeGreaterThanOrEqual(huge);
  });

  it('refuses what is not a size', () => {
    expect(() => planUpload(-1)).toThrow(RangeError);
    expect(() => planUpload(1.5)).toThrow(RangeError);
  });
});

describe('partRange', () => {
  it('covers the file exactly once with a shorter last part', () => {
    const size = 12 * MIB + 123;
    const plan = planUpload(size);
    const parts = Array.from({ length: plan.partCount }, (_, index) => partRange(size, plan, index + 1));
    expect(parts[0]).toEqual({ partNumber: 1, start: 0, end: MIN_PART_BYTES });
    expect(parts.at(-1)).toEqual({ partNumber: 3, start: 2 * MIN_PART_BYTES, end: size });
    expect(parts.reduce((sum, part) => sum + part.end - part.start, 0)).toBe(size);
    for (const part of parts.slice(0, -1)) expect(part.end - part.start).toBe(MIN_PART_BYTES);
  });
  it('refuses parts outside the plan', () => {
    expect(() => partRange(10, planUpload(10), 2)).toThrow(RangeError);
    expect(() => partRange(10, planUpload(10), 0)).toThrow(RangeError);
  });
});
