import * as v from 'valibot';
import {
  apiKeyListSchema,
  apiKeySchema,
  createdApiKeySchema,
  type CreateApiKeyRequest,
  type UpdateApiKeyRequest,
} from '../../../contract/api-keys';
import { apiRequest } from './client';

export const listApiKeys = () => apiRequest('/admin/api-keys', { schema: apiKeyListSchema });

/** The answer holds the whole key: the only one that does. */
export const createApiKey = (body: CreateApiKeyRequest) =>
  apiRequest('/admin/api-keys', { method: 'POST', body, schema: createdApiKeySchema });

export const updateApiKey = (id: string, body: UpdateApiKeyRequest) =>
  apiRequest(`/admin/api-keys/${encodeURIComponent(id)}`, { method: 'PUT', body, schema: apiKeySchema });

export const deleteApiKey = (id: string) =>
  apiRequest(`/admin/api-keys/${encodeURIComponent(id)}`, { method: 'DELETE', schema: v.null() });
