import * as v from 'valibot';
import { numberish } from './lenient';

/**
 * The multipart rules, in one home for every side: the worker's planner, the share and mount routes, the storage
 * drivers, WebDAV and copies. They are S3's rules, kept by the local driver too, so an upload behaves the same on
 * either storage.
 */

const MIB = 1024 * 1024;

/** S3's smallest part for every part but the last; "5 MB" parts mean 5 MiB (5,242,880 bytes). */
export const MIN_PART_BYTES = 5 * MIB;
/** S3's largest part (5 GiB). */
export const MAX_PART_BYTES = 5 * 1024 * MIB;
/** S3 allows at most this many parts in one upload. */
export const MAX_PART_COUNT = 10_000;
/** Files larger than this go through multipart; smaller ones in one request. */
export const MULTIPART_THRESHOLD = MIN_PART_BYTES;
/** Most part URLs signed in one call: the client signs a few at a time, just before sending. */
export const MAX_PARTS_SIGNED_AT_ONCE = 20;

/** A part number as JSON carries it (or as a numeric string): 1 to 10,000. */
export const partNumberSchema = numberish(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_PART_COUNT)));

export interface UploadPlan {
  partSize: number;
  partCount: number;
}

export interface PartPlan {
  partNumber: number;
  /** Byte offset of the first byte. */
  start: number;
  /** Byte offset after the last byte (exclusive). */
  end: number;
}

/**
 * The part size for a file: 5 MiB, or when that would need more than 10,000 parts, the file size over 10,000
 * rounded up to a whole MiB. Fixed for the whole upload (R2 wants equal parts) and kept for a resume.
 */
export function partSizeFor(size: number): number {
  return Math.max(MIN_PART_BYTES, Math.ceil(size / MAX_PART_COUNT / MIB) * MIB);
}

/** The largest part any upload plans: the part size of the largest file a safe integer can measure. */
export const LARGEST_PLANNED_PART_BYTES = partSizeFor(Number.MAX_SAFE_INTEGER);

/** The part size and count of a file of `size` bytes (an empty file is one empty part). */
export function planUpload(size: number): UploadPlan {
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`Not a file size: ${size}`);
  const partSize = partSizeFor(size);
  return { partSize, partCount: Math.max(1, Math.ceil(size / partSize)) };
}

/** The byte range of part `partNumber` (1-based) under a plan. */
export function partRange(size: number, plan: UploadPlan, partNumber: number): PartPlan {
  if (partNumber < 1 || partNumber > plan.partCount) throw new RangeError(`No part ${partNumber} of ${plan.partCount}`);
  const start = (partNumber - 1) * plan.partSize;
  return { partNumber, start, end: Math.min(size, start + plan.partSize) };
}
