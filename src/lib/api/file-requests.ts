import * as v from 'valibot';
import {
  FILE_REQUEST_GRANT_SCHEME,
  fileRequestGrantSchema,
  fileRequestListSchema,
  fileRequestSchema,
  fileRequestUploadListSchema,
  publicFileRequestSchema,
  type CreateFileRequest,
  type UpdateFileRequest,
} from '../../../contract/file-requests';
import { apiRequest } from './client';

const enc = encodeURIComponent;

/** The link senders open. */
export const fileRequestUrl = (slug: string) => `${window.location.origin}/request/${enc(slug)}`;

// The creator's calls: the admin sees every request, a key its own (the server tells them apart).
export const listFileRequests = (page: number, limit: number) =>
  apiRequest(`/file-requests?limit=${limit}&offset=${(page - 1) * limit}`, { schema: fileRequestListSchema, fileRoute: true });
export const createFileRequest = (body: CreateFileRequest) => apiRequest('/file-requests', { method: 'POST', body, schema: fileRequestSchema, fileRoute: true });
export const updateFileRequest = (id: string, body: UpdateFileRequest) =>
  apiRequest(`/file-requests/${enc(id)}`, { method: 'PATCH', body, schema: fileRequestSchema, fileRoute: true });
export const deleteFileRequest = (id: string) => apiRequest(`/file-requests/${enc(id)}`, { method: 'DELETE', schema: v.unknown(), fileRoute: true });
export const listReceivedFiles = (id: string) =>
  apiRequest(`/file-requests/${enc(id)}/uploads`, { schema: fileRequestUploadListSchema, fileRoute: true }).then((answer) => answer.items);

// The sender's calls: no account's credentials, only the grant.
const senderPath = (slug: string) => `/public/file-requests/${enc(slug)}`;
export const getPublicFileRequest = (slug: string) => apiRequest(senderPath(slug), { schema: publicFileRequestSchema, credentials: {} });
export const askFileRequestGrant = (slug: string, body: { password?: string; sender_name?: string }) =>
  apiRequest(`${senderPath(slug)}/grant`, { method: 'POST', body, schema: fileRequestGrantSchema, credentials: {}, ownUnauthorizedMessage: '' });
export const listSentFiles = (slug: string, grant: string) =>
  apiRequest(`${senderPath(slug)}/uploads`, { schema: fileRequestUploadListSchema, credentials: {}, authorization: `${FILE_REQUEST_GRANT_SCHEME} ${grant}` }).then(
    (answer) => answer.items,
  );
