import { t } from '@lingui/core/macro';
import { readSharePeek, type SharePeek } from '../../../contract/share-peek';
import { ApiRequestError, signedInAuthorization } from '../../lib/api/client';
import { backendBaseUrl } from '../../lib/backend-url';

/** What a file share's page may show before a view is spent. */
export type FilePeek =
  | { locked: true }
  | ({ locked: false; filename: string } & Pick<SharePeek, 'size' | 'contentType' | 'viewsLeft' | 'expiresAt'>);

/**
 * The name the server writes into `filename*` (contentDisposition in server/storage/http-headers.ts): UTF-8,
 * percent-encoded.
 */
function filenameIn(disposition: string | null): string | undefined {
  const encoded = /filename\*=UTF-8''([^;\s]+)/i.exec(disposition ?? '')?.[1];
  if (encoded === undefined) return undefined;
  try {
    return decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
}

/**
 * A `HEAD` of the share's download link: the server runs every check of a download but spends no view, and
 * answers with the share's peek headers and the file's name. A share behind a password is refused (401) until
 * the password is given: it is `locked`, and its password form is the step that spends a view.
 */
export async function peekFile(slug: string): Promise<FilePeek> {
  let response: Response;
  try {
    // The owner's credentials go along (as with a paste's peek): an owner's own visit stays out of the access log.
    const authorization = signedInAuthorization();
    response = await fetch(`${backendBaseUrl()}/api/file-download/${encodeURIComponent(slug)}`, {
      method: 'HEAD',
      headers: authorization ? { Authorization: authorization } : {},
    });
  } catch {
    throw new ApiRequestError('network', 0, t`Network error, please check your connection`);
  }
  const { status, statusText } = response;
  if (status === 401) return { locked: true };
  // A HEAD carries no envelope: the page tells 404 and 410 apart by status, anything else by this text.
  if (!response.ok) throw new ApiRequestError('http', status, t`HTTP error ${status}: ${statusText}`);
  const peek = readSharePeek(response.headers);
  const filename = filenameIn(response.headers.get('Content-Disposition'));
  if (!peek || filename === undefined) throw new ApiRequestError('internal', status, t`The server sent an unexpected answer`);
  const { size, contentType, viewsLeft, expiresAt } = peek;
  return { locked: false, filename, size, contentType, viewsLeft, expiresAt };
}
