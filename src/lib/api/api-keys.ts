import * as v from 'valibot';
import {
  apiKeyListSchema,
  apiKeySchema,
  type CreateApiKeyRequest,
  type UpdateApiKeyRequest,
} from '../../../contract/api-keys';
import { apiRequest } from './client';

export const listApiKeys = () => apiRequest('/admin/api-keys', { schema: apiKeyListSchema });

export const createApiKey = (body: CreateApiKeyRequest) =>
  apiRequest('/admin/api-keys', { method: 'POST', body, schema: apiKeySchema });

export const updateApiKey = (id: string, body: UpdateApiKeyRequest) =>
  apiRequest(`/admin/api-keys/${encodeURIComponent(id)}`, { method: 'PUT', body, schema: apiKeySchema });

export const deleteApiKey = (id: string) =>
  apiRequest(`/admin/api-keys/${encodeURIComponent(id)}`, { method: 'DELETE', schema: v.null() });
