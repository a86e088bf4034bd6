import * as v from 'valibot';
import {
  storageConfigListSchema,
  storageConfigSchema,
  storageTestResultSchema,
  type CreateStorageConfigRequest,
  type UpdateStorageConfigRequest,
} from '../../../contract/storage';
import { apiRequest } from './client';

const path = (id: string) => `/s3-configs/${encodeURIComponent(id)}`;

export const listStorageConfigs = () => apiRequest('/s3-configs', { schema: storageConfigListSchema, fileRoute: true });

export const createStorageConfig = (body: CreateStorageConfigRequest) =>
  apiRequest('/s3-configs', { method: 'POST', body, schema: storageConfigSchema });

export const updateStorageConfig = (id: string, body: UpdateStorageConfigRequest) =>
  apiRequest(path(id), { method: 'PUT', body, schema: storageConfigSchema });

export const deleteStorageConfig = (id: string) => apiRequest(path(id), { method: 'DELETE', schema: v.unknown() });

export const setDefaultStorageConfig = (id: string) =>
  apiRequest(`${path(id)}/set-default`, { method: 'PUT', schema: v.unknown() });

export const testStorageConfig = (id: string) =>
  apiRequest(`${path(id)}/test`, { method: 'POST', schema: storageTestResultSchema });
