import type { ShareOptions } from '../../../contract/transfer';

/** Expiry choices for file shares, in hours (0 = never), as the API takes them; the same spans as pastes offer. */
export const FILE_EXPIRY_HOURS = [0, 1, 24, 168, 336, 720, 2160, 4320] as const;
export type FileExpiryHours = (typeof FILE_EXPIRY_HOURS)[number];

/** What a shared photo loses before it leaves the browser: its location, all its metadata, or nothing. */
export const PHOTO_METADATA_CHOICES = ['location', 'all', 'keep'] as const;
export type PhotoMetadata = (typeof PHOTO_METADATA_CHOICES)[number];

export interface UploadFormValues {
  slug: string;
  remark: string;
  password: string;
  expiresIn: FileExpiryHours;
  maxViews: string;
  /** Undefined until the user chooses: the server's setting decides (photoMetadataOf). */
  photoMetadata?: PhotoMetadata;
}

/** The user's choice, else the system setting "remove location from shared images" (on unless the server says off). */
export const photoMetadataOf = (values: UploadFormValues, stripLocationSetting: boolean | undefined): PhotoMetadata =>
  values.photoMetadata ?? (stripLocationSetting === false ? 'keep' : 'location');

export const emptyUploadForm: UploadFormValues = { slug: '', remark: '', password: '', expiresIn: 0, maxViews: '' };

/**
 * Share options for one file of a batch: a custom slug only makes sense for a single file. `photoMetadata` is for
 * local files (a file from a web address is already public as it is).
 */
export function shareOptionsFor(values: UploadFormValues, fileCount: number, photoMetadata: PhotoMetadata = 'keep'): ShareOptions {
  return {
    ...(photoMetadata !== 'keep' && { strip_metadata: photoMetadata }),
    ...(fileCount === 1 && values.slug.trim() && { slug: values.slug.trim() }),
    ...(values.remark.trim() && { remark: values.remark.trim() }),
    ...(values.password && { password: values.password }),
    expires_in: values.expiresIn,
    max_views: values.maxViews.trim() ? Number(values.maxViews) : 0,
  };
}
