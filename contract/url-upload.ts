import * as v from 'valibot';
import { presignRequestSchema } from './files';

/** The URL to upload from must be a valid http(s) URL. */
export const sourceUrlSchema = v.pipe(
  v.string(),
  v.trim(),
  v.url('invalid_url'),
  v.check((url) => /^https?:\/\//i.test(url), 'invalid_url'),
  v.maxLength(4096, 'too_long'),
);

/** `POST /api/url/info`. */
export const urlInfoRequestSchema = v.object({ url: sourceUrlSchema });

export const urlInfoResponseSchema = v.object({
  /** The final URL after redirects. */
  url: v.string(),
  filename: v.string(),
  /** null when the source does not say. */
  size: v.nullable(v.number()),
  contentType: v.string(),
  /** The source answers CORS for this app's origin, so the browser may fetch it directly. */
  corsAllowed: v.boolean(),
});
export type UrlInfo = v.InferOutput<typeof urlInfoResponseSchema>;

/** `GET /api/url/proxy?url=`: the source's bytes streamed through the server, for sources without CORS. */
export const urlProxyQuerySchema = v.object({ url: sourceUrlSchema });

/**
 * `POST /api/url/presign`: like `/api/s3/presign` (answers presignResponseSchema), plus the address the bytes
 * come from (kept with the record). `/api/url/commit` takes commitRequestSchema.
 */
export const urlPresignRequestSchema = v.object({ ...presignRequestSchema.entries, url: sourceUrlSchema });
export type UrlPresignRequest = v.InferInput<typeof urlPresignRequestSchema>;

/** `POST /api/url/cancel`: drop the pending record (and any object) of a cancelled URL upload. */
export const urlCancelRequestSchema = v.object({ file_id: v.string() });
