import {
  DEFAULT_MAX_UPLOAD_SIZE_MB,
  maxUploadSizeSchema,
  previewSettingsSchema,
  systemSettingsSchema,
  uploadDefaultsSchema,
  type UpdateSystemSettingsRequest,
} from '../../../contract/system';
import { apiRequest } from './client';

export const getSystemSettings = () => apiRequest('/admin/system-settings', { schema: systemSettingsSchema });

export const updateSystemSettings = (body: UpdateSystemSettingsRequest) =>
  apiRequest('/admin/system-settings', { method: 'PUT', body, schema: systemSettingsSchema });

/** In MB; the server's own default of 100 when the server cannot be asked. */
export const getMaxUploadSizeMb = () =>
  apiRequest('/system/max-upload-size', { schema: maxUploadSizeSchema })
    .then((data) => data.max_upload_size)
    .catch(() => DEFAULT_MAX_UPLOAD_SIZE_MB);

export const getUploadDefaults = () => apiRequest('/system/upload-defaults', { schema: uploadDefaultsSchema });
/** Whether previews offer the online Office viewers; off when the server cannot be asked. */
export const getPreviewSettings = () =>
  apiRequest('/system/previews', { schema: previewSettingsSchema }).catch(() => ({ online_office_viewers: false }));
