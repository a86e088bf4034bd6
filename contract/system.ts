import * as v from 'valibot';
import { MAX_ACCESS_LOG_RETENTION_DAYS } from './access-log';
import { expenseCategoriesSettingSchema } from './expenses';
import { numberish } from './lenient';

export const WEBDAV_UPLOAD_MODES = ['auto', 'proxy', 'multipart', 'direct'] as const;
export type WebdavUploadMode = (typeof WEBDAV_UPLOAD_MODES)[number];

/** Megabytes; the client falls back to this when the server cannot be asked. */
export const DEFAULT_MAX_UPLOAD_SIZE_MB = 100;

export const systemSettingsSchema = v.object({
  max_upload_size: v.number(),
  webdav_upload_mode: v.picklist(WEBDAV_UPLOAD_MODES),
  expense_categories: v.array(v.string()),
  /** Shared photos lose their GPS position on upload unless the uploader chooses otherwise (on by default). */
  strip_image_location: v.boolean(),
  /** Offer Microsoft's and Google's online viewers beside the in-browser Office previews (they fetch the file). */
  online_office_viewers: v.boolean(),
  /** Share access logs keep visitors' whole addresses, not only their network (IPv4 /24, IPv6 /48). */
  access_log_full_ip: v.boolean(),
  /** Days an access stays in a share's access log. */
  access_log_retention_days: v.number(),
});
export type SystemSettings = v.InferOutput<typeof systemSettingsSchema>;

export const updateSystemSettingsRequestSchema = v.partial(
  v.object({
    max_upload_size: numberish(v.pipe(v.number(), v.finite(), v.gtValue(0, 'must_be_positive'), v.maxValue(1024 * 1024, 'too_large'))),
    webdav_upload_mode: v.picklist(WEBDAV_UPLOAD_MODES, 'invalid_choice'),
    expense_categories: expenseCategoriesSettingSchema,
    strip_image_location: v.boolean('must_be_boolean'),
    online_office_viewers: v.boolean('must_be_boolean'),
    access_log_full_ip: v.boolean('must_be_boolean'),
    access_log_retention_days: numberish(
      v.pipe(v.number(), v.integer('must_be_integer'), v.minValue(1, 'must_be_positive'), v.maxValue(MAX_ACCESS_LOG_RETENTION_DAYS, 'too_large')),
    ),
  }),
);
export type UpdateSystemSettingsRequest = v.InferOutput<typeof updateSystemSettingsRequestSchema>;

/** What the file previews of every page (share pages included) need of the settings. */
export const previewSettingsSchema = v.object({ online_office_viewers: v.boolean() });
export type PreviewSettings = v.InferOutput<typeof previewSettingsSchema>;

export const maxUploadSizeSchema = v.object({ max_upload_size: v.number() });
/** What the upload page starts from: `GET /api/system/upload-defaults`. */
export const uploadDefaultsSchema = v.object({ strip_image_location: v.boolean() });
export const healthSchema = v.object({ status: v.literal('ok') });

/** One readiness check: passed, failed, or nothing to check (no default storage configured yet). */
export const readinessCheckSchema = v.picklist(['ok', 'failed', 'none']);
export const readinessChecksSchema = v.object({ database: readinessCheckSchema, storage: readinessCheckSchema });
export type ReadinessChecks = v.InferOutput<typeof readinessChecksSchema>;
/** `GET /api/health/ready` when every check passed; a 503 carries `draining`, and `checks` unless draining. */
export const readinessSchema = v.object({ status: v.literal('ready'), checks: readinessChecksSchema });
export const versionSchema = v.object({ version: v.string(), commit: v.optional(v.string()) });
export type VersionInfo = v.InferOutput<typeof versionSchema>;
