import * as v from 'valibot';
import { shareOptionsSchema } from './files';
import { numberish, optionalSlug } from './lenient';
import { MAX_PART_COUNT, MAX_PARTS_SIGNED_AT_ONCE, MIN_PART_BYTES, partNumberSchema } from './parts';
import { sourceUrlSchema } from './url-upload';

/**
 * `POST /api/s3/multipart/init` (and `/api/url/multipart/init`). The client chooses the part size (its
 * planner) so that a resumed upload keeps it; the server checks it against S3's limits and the size limits.
 */
export const multipartInitRequestSchema = v.object({
  s3_config_id: v.optional(v.string()),
  filename: v.pipe(v.string(), v.trim(), v.minLength(1, 'required'), v.maxLength(255, 'too_long')),
  mimetype: v.optional(v.string(), 'application/octet-stream'),
  size: numberish(v.pipe(v.number(), v.integer(), v.minValue(1, 'must_be_positive'))),
  part_size: numberish(v.pipe(v.number(), v.integer(), v.minValue(MIN_PART_BYTES, 'too_small'))),
  slug: optionalSlug,
  /** URL uploads: where the bytes come from (kept for the record): an http(s) URL of at most 4096 characters. */
  source_url: v.optional(sourceUrlSchema),
});
export type MultipartInitRequest = v.InferInput<typeof multipartInitRequestSchema>;

export const multipartInitResponseSchema = v.object({
  file_id: v.string(),
  upload_id: v.string(),
  storage_path: v.string(),
  part_size: v.number(),
  part_count: v.number(),
});
export type MultipartInitResponse = v.InferOutput<typeof multipartInitResponseSchema>;

const uploadRefSchema = { file_id: v.string(), upload_id: v.string() };

/** `POST /api/s3/multipart/sign`: presigned PUT URLs for a few parts. */
export const multipartSignRequestSchema = v.object({
  ...uploadRefSchema,
  partNumbers: v.pipe(v.array(partNumberSchema), v.minLength(1), v.maxLength(MAX_PARTS_SIGNED_AT_ONCE)),
});
export const multipartSignResponseSchema = v.object({
  urls: v.array(v.object({ partNumber: v.number(), url: v.string() })),
  /** Seconds each URL stays valid. */
  expires_in: v.number(),
});
export type MultipartSignResponse = v.InferOutput<typeof multipartSignResponseSchema>;

/** `GET /api/s3/multipart/parts?file_id&upload_id`: the parts storage already holds (for resuming). */
export const multipartPartsQuerySchema = v.object(uploadRefSchema);
export const multipartPartsResponseSchema = v.object({
  parts: v.array(v.object({ partNumber: v.number(), size: v.number(), etag: v.string() })),
});
export type MultipartPartsResponse = v.InferOutput<typeof multipartPartsResponseSchema>;

/** `POST /api/s3/multipart/complete`: assemble the parts, then finish the share like a commit. */
export const multipartCompleteRequestSchema = v.object({
  ...uploadRefSchema,
  parts: v.pipe(
    v.array(v.object({ partNumber: partNumberSchema, etag: v.pipe(v.string(), v.minLength(1)) })),
    v.minLength(1),
    v.maxLength(MAX_PART_COUNT),
  ),
  ...shareOptionsSchema.entries,
});
export type MultipartCompleteRequest = v.InferInput<typeof multipartCompleteRequestSchema>;

/** `POST /api/s3/multipart/abort`: drop the parts and the pending record. */
export const multipartAbortRequestSchema = v.object(uploadRefSchema);
