import { FS_THUMBNAIL_LINKS_MAX } from '../../../contract/thumbnails';
import { backendBaseUrl } from '../../lib/backend-url';
import { currentScope } from '../../lib/api/client';
import { thumbnailLinks } from '../../lib/api/fs';

export interface ThumbnailUrls {
  grid: string;
  large: string;
}

/** Links are signed for two days at most; asked again after half a day. */
const KEEP_MS = 12 * 3600 * 1000;
const known = new Map<string, { at: number; urls: Promise<ThumbnailUrls | undefined> }>();
let waiting: { path: string; resolve: (urls: ThumbnailUrls | undefined) => void }[] = [];

/** One call for the tiles that came into view together (up to 200 a call) rather than one per tile. */
async function askForWaiting() {
  const batch = waiting;
  waiting = [];
  for (let start = 0; start < batch.length; start += FS_THUMBNAIL_LINKS_MAX) {
    const part = batch.slice(start, start + FS_THUMBNAIL_LINKS_MAX);
    const answer = await thumbnailLinks(part.map((entry) => entry.path)).catch(() => undefined);
    const byPath = new Map(answer?.links.map((link) => [link.path, link]));
    for (const entry of part) {
      const link = byPath.get(entry.path);
      if (!answer) known.delete(`${currentScope()}\n${entry.path}`); // a failed call is tried again next time
      entry.resolve(link && { grid: `${backendBaseUrl()}${link.grid}`, large: `${backendBaseUrl()}${link.large}` });
    }
  }
}

/**
 * The signed grid and large thumbnail URLs of a file, with its version (`v`) so that the browser keeps each for
 * good and a changed file gets a new one; undefined when the server makes none for it.
 */
export async function thumbnailUrlsOf(path: string, version: string): Promise<ThumbnailUrls | undefined> {
  const id = `${currentScope()}\n${path}`;
  let entry = known.get(id);
  if (!entry || Date.now() - entry.at > KEEP_MS) {
    const urls = new Promise<ThumbnailUrls | undefined>((resolve) => {
      if (waiting.length === 0) setTimeout(() => void askForWaiting(), 0);
      waiting.push({ path, resolve });
    });
    entry = { at: Date.now(), urls };
    known.set(id, entry);
  }
  const urls = await entry.urls;
  const v = `&v=${encodeURIComponent(version)}`;
  return urls && { grid: `${urls.grid}${v}`, large: `${urls.large}${v}` };
}
