import { urlInfoResponseSchema } from '../../../contract/url-upload';
import { apiRequest } from './client';

/** What the server finds out about a web address before uploading from it (name, size, type, CORS). */
export const getUrlInfo = (url: string, signal?: AbortSignal) =>
  apiRequest('/url/info', { method: 'POST', body: { url }, schema: urlInfoResponseSchema, fileRoute: true, signal });
