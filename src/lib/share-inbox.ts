import { idbStore } from './idb-store';

/** What the share sheet sent, kept by the service worker until a page takes it. */
export interface SharedEntry {
  id: string;
  title: string;
  text: string;
  url: string;
  files: File[];
  /** epoch milliseconds */
  receivedAt: number;
}

/** An entry nobody took within a day is dropped the next time something is shared. */
const KEPT_MS = 24 * 60 * 60 * 1000;

const run = idbStore('clipstash-share-target', 1, 'shared');

/** The text of a share as the editor opens it: the text, the title, the link, each once and on its own line. */
export function sharedText({ title, text, url }: Pick<SharedEntry, 'title' | 'text' | 'url'>): string {
  const parts = [title, text].map((part) => part.trim()).filter(Boolean);
  // Share sheets often put the link into the text as well.
  if (url.trim() && !parts.some((part) => part.includes(url.trim()))) parts.push(url.trim());
  return parts.join('\n\n');
}

/**
 * The share target's inbox: the service worker puts what was shared, the editor takes the text and the upload page
 * the files, each removing its part; the entry goes once nothing is left.
 */
export const shareInbox = {
  async put(entry: SharedEntry): Promise<void> {
    const all = (await run('readonly', (store) => store.getAll())) as SharedEntry[];
    const stale = all.filter((old) => entry.receivedAt - old.receivedAt > KEPT_MS);
    for (const old of stale) await run('readwrite', (store) => store.delete(old.id));
    await run('readwrite', (store) => store.put(entry));
  },
  async get(id: string): Promise<SharedEntry | undefined> {
    return (await run('readonly', (store) => store.get(id))) as SharedEntry | undefined;
  },
  /** Removes the text (`text`) or the files (`files`) of entry `id`: that part was taken. */
  async take(id: string, part: 'text' | 'files'): Promise<void> {
    const entry = await this.get(id);
    if (!entry) return;
    const rest = part === 'text' ? { ...entry, title: '', text: '', url: '' } : { ...entry, files: [] };
    const empty = !sharedText(rest) && rest.files.length === 0;
    if (empty) await run('readwrite', (store) => store.delete(id));
    else await run('readwrite', (store) => store.put(rest));
  },
};
