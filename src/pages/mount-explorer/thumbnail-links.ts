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

/** Answers of a server too busy to make the thumbnail now, which it makes when asked again later. */
const BUSY = new Set([429, 503]);
/** Asks after a busy answer before a tile gives up and keeps its icon: about a minute with the pauses. */
const BUSY_ASKS = 6;

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });

/**
 * Whether the thumbnail at `url`, whose image failed, can be shown after all. An image does not say why it failed:
 * asked again by `fetch`, a server busy making others (the grid asks for a screenful at once) is asked after a
 * growing pause, at least the one it names in Retry-After; once it answers, the browser's cache holds the thumbnail for a
 * new image. False for any other failure (a picture the server cannot read), or after `BUSY_ASKS` busy answers.
 */
export async function thumbnailShowable(url: string, signal: AbortSignal): Promise<boolean> {
  for (let ask = 0; ask < BUSY_ASKS; ask++) {
    const answer = await fetch(url, { signal });
    if (answer.ok) {
      await answer.arrayBuffer();
      return true;
    }
    if (!BUSY.has(answer.status)) return false;
    const retryAfter = Number(answer.headers.get('Retry-After')) || 0;
    await pause(Math.max(retryAfter * 1000, 1000 * 2 ** ask), signal);
  }
  return false;
}
