import { localStore, STORAGE_KEYS } from './storage';

export const RECENT_UPLOADS_SHOWN = 3;

export interface RecentUpload {
  slug: string;
  filename: string;
  size: number;
  uploadedAt: string;
}

/** The last uploads of this browser, newest first, kept locally (the last 3). */
export const recentUploads = {
  list(): RecentUpload[] {
    const stored = localStore.getJson<RecentUpload[]>(STORAGE_KEYS.recentUploads);
    return Array.isArray(stored) ? stored.slice(0, RECENT_UPLOADS_SHOWN) : [];
  },
  add(upload: RecentUpload): RecentUpload[] {
    const next = [upload, ...this.list().filter((item) => item.slug !== upload.slug)].slice(0, RECENT_UPLOADS_SHOWN);
    localStore.set(STORAGE_KEYS.recentUploads, JSON.stringify(next));
    return next;
  },
};
