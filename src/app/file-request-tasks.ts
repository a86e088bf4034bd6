import { FILE_REQUEST_GRANT_SCHEME, type FileRequestGrant } from '../../contract/file-requests';
import type { ApiAccess } from '../../contract/transfer';
import type { TaskInput } from '../../machines/task.machine';
import { localStore, STORAGE_KEYS } from '../lib/storage';

/** A file sent through a file request, as a task: the runner hands it to the engine with the sender's grant. */
export function fileRequestTask(slug: string, file: File): TaskInput {
  return { id: crypto.randomUUID(), type: 'upload', label: file.name, payload: { kind: 'fileRequestUpload', slug, file } };
}

type StoredGrants = Record<string, { grant: string; expiresAt: number }>;

/**
 * The grants this browser was given, kept until they expire: an upload resumed after a reload goes on with the grant
 * it started with (a password is not asked again).
 */
export const fileRequestGrants = {
  get(slug: string): string | undefined {
    const entry = localStore.getJson<StoredGrants>(STORAGE_KEYS.fileRequestGrants)?.[slug];
    return entry && entry.expiresAt > Date.now() ? entry.grant : undefined;
  },
  set(slug: string, { grant, expires_in }: FileRequestGrant) {
    const now = Date.now();
    const live = Object.entries(localStore.getJson<StoredGrants>(STORAGE_KEYS.fileRequestGrants) ?? {}).filter(([, entry]) => entry.expiresAt > now);
    const next: StoredGrants = { ...Object.fromEntries(live), [slug]: { grant, expiresAt: now + expires_in * 1000 } };
    localStore.set(STORAGE_KEYS.fileRequestGrants, JSON.stringify(next));
  },
};

/** How the worker reaches a request's upload calls: the app's address and language, and the sender's grant. */
export const withGrant = (api: ApiAccess, grant: string): ApiAccess => ({ ...api, authorization: `${FILE_REQUEST_GRANT_SCHEME} ${grant}` });
