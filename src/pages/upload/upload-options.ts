import type { ShareOptions } from '../../../contract/transfer';

/** Expiry choices for file shares, in hours (0 = never), as the API takes them. */
export const FILE_EXPIRY_HOURS = [0, 1, 24, 168, 720] as const;
export type FileExpiryHours = (typeof FILE_EXPIRY_HOURS)[number];

export interface UploadFormValues {
  slug: string;
  remark: string;
  password: string;
  expiresIn: FileExpiryHours;
  maxViews: string;
}

export const emptyUploadForm: UploadFormValues = { slug: '', remark: '', password: '', expiresIn: 0, maxViews: '' };

/** Share options for one file of a batch: a custom slug only makes sense for a single file. */
export function shareOptionsFor(values: UploadFormValues, fileCount: number): ShareOptions {
  return {
    ...(fileCount === 1 && values.slug.trim() && { slug: values.slug.trim() }),
    ...(values.remark.trim() && { remark: values.remark.trim() }),
    ...(values.password && { password: values.password }),
    expires_in: values.expiresIn,
    max_views: values.maxViews.trim() ? Number(values.maxViews) : 0,
  };
}
