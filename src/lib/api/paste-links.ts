// A paste's links, apart from its reads (./paste-reads.ts): the home page and the admin's list build them too, and
// with the reads there, the reads went into the chunk a file share's page loads as well (scripts/share-page-chunks.ts).
import { backendBaseUrl } from '../backend-url';

const enc = encodeURIComponent;

/** The raw link: plain text, for curl and scripts; a password goes in the query. */
export function rawPasteUrl(slug: string, password?: string): string {
  const url = `${backendBaseUrl()}/api/raw/${enc(slug)}`;
  return password ? `${url}?password=${enc(password)}` : url;
}

export const pasteShareUrl = (slug: string) => `${window.location.origin}/paste/${enc(slug)}`;
