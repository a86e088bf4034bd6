import * as v from 'valibot';
import {
  webhookDeliveryListSchema,
  webhookDeliverySchema,
  webhookListSchema,
  webhookSchema,
  webhookWithSecretSchema,
  type CreateWebhookRequest,
  type UpdateWebhookRequest,
} from '../../../contract/webhooks';
import { apiRequest } from './client';

const path = (id: string) => `/admin/webhooks/${encodeURIComponent(id)}`;

export const listWebhooks = () => apiRequest('/admin/webhooks', { schema: webhookListSchema });

/** The answer holds the whole signing secret: the only one that does (with a rotation's). */
export const createWebhook = (body: CreateWebhookRequest) => apiRequest('/admin/webhooks', { method: 'POST', body, schema: webhookWithSecretSchema });

export const updateWebhook = (id: string, body: UpdateWebhookRequest) =>
  apiRequest(path(id), { method: 'PUT', body, schema: v.union([webhookWithSecretSchema, webhookSchema]) });

export const deleteWebhook = (id: string) => apiRequest(path(id), { method: 'DELETE', schema: v.null() });

export const sendTestEvent = (id: string) => apiRequest(`${path(id)}/test`, { method: 'POST', schema: webhookDeliverySchema });

export const listDeliveries = (id: string) => apiRequest(`${path(id)}/deliveries`, { schema: webhookDeliveryListSchema });
