import * as v from 'valibot';
import { mountListSchema, mountSchema, type CreateMountRequest, type UpdateMountRequest } from '../../../contract/mounts';
import { apiRequest } from './client';

const path = (id: string) => `/admin/mounts/${encodeURIComponent(id)}`;

export const listMounts = () => apiRequest('/admin/mounts', { schema: mountListSchema });

export const createMount = (body: CreateMountRequest) => apiRequest('/admin/mounts', { method: 'POST', body, schema: mountSchema });

export const updateMount = (id: string, body: UpdateMountRequest) => apiRequest(path(id), { method: 'PUT', body, schema: mountSchema });

export const deleteMount = (id: string) => apiRequest(path(id), { method: 'DELETE', schema: v.unknown() });
