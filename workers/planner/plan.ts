/** S3's smallest part for every part but the last; "5 MB" in the spec means 5 MiB. */
export const MIN_PART_SIZE = 5 * 1024 * 1024;
/** S3 allows at most this many parts in one upload. */
export const MAX_PARTS = 10_000;
const MIB = 1024 * 1024;

export interface PartPlan {
  partNumber: number;
  /** Byte offset of the first byte. */
  start: number;
  /** Byte offset after the last byte (exclusive). */
  end: number;
}

export interface UploadPlan {
  partSize: number;
  partCount: number;
}

/**
 * The part size for a file: 5 MiB, or when that would need more than 10,000 parts, the file size over 10,000
 * rounded up to a whole MiB. Fixed for the whole upload (R2 wants equal parts) and kept in the journal.
 */
export function planUpload(size: number): UploadPlan {
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`Not a file size: ${size}`);
  const partSize = Math.max(MIN_PART_SIZE, Math.ceil(size / MAX_PARTS / MIB) * MIB);
  return { partSize, partCount: Math.max(1, Math.ceil(size / partSize)) };
}

/** The byte range of part `partNumber` (1-based) under a plan. */
export function partRange(size: number, plan: UploadPlan, partNumber: number): PartPlan {
  if (partNumber < 1 || partNumber > plan.partCount) throw new RangeError(`No part ${partNumber} of ${plan.partCount}`);
  const start = (partNumber - 1) * plan.partSize;
  return { partNumber, start, end: Math.min(size, start + plan.partSize) };
}
