import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ThumbnailSize } from '../../../contract/thumbnails';
import { ApiError } from '../../errors';
import { ObjectNotFoundError, type StorageDriver } from '../../storage/driver';
import { THUMBNAIL_AREA } from '../../storage/keys';
import { describeError } from '../../storage/reason';
import { ToolError } from './external-tools';
import { createLimiter } from './queue';
import { renderThumbnail, sourceKindOf, TooManyPixelsError, type RenderInput } from './render';
import { log } from '../../observability/log';

/** A file to make a thumbnail of: where it is and what tells its versions apart. */
export interface ThumbnailSource {
  /** The storage config: thumbnails of two storages never share a cache entry or a making. */
  storageId: string;
  driver: StorageDriver;
  key: string;
  size: number;
  etag: string | null;
  modified: Date | null;
  mimetype: string;
}

export interface Thumbnail {
  bytes: Buffer;
  /** Changes with the source's version and the size asked for; without quotes. */
  etag: string;
}

/** Bumped when the rendering changes, so that every cached thumbnail is made again. */
const RENDER_VERSION = 1;
/** The most of a source read: images and PDFs whole (their decoders need it all), videos their first bytes. */
export const MAX_SOURCE_BYTES = 64 * 1024 * 1024;

const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);

/**
 * Where the thumbnail of one version of a source is kept, at the root of the source's own storage (out of every
 * mount's reach, as the share area is): a folder per source key, a file per version and size, so that a changed
 * file (new ETag, or new time and size) gets a new one and the old ones can be found and removed.
 */
function cachePlaceOf(source: ThumbnailSource, size: ThumbnailSize) {
  const stamp = source.etag ?? source.modified?.toISOString() ?? '';
  const version = hash(`${RENDER_VERSION}\n${stamp}\n${source.size}`);
  const folder = `${THUMBNAIL_AREA}/${hash(source.key)}`;
  return { folder, key: `${folder}/${version}-${size}.webp`, version, etag: `${version}-${size}` };
}

/** The process's one line of makings: exported so that a test can fill it. */
export const runLimited = createLimiter(2, 200);

/** A making under way, shared by the requests for one thumbnail; it leaves the line when all of them have gone. */
interface Making {
  result: Promise<Thumbnail>;
  askers: number;
  gone: AbortController;
}
const making = new Map<string, Making>();

async function readBounded(stream: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > limit) {
      stream.destroy();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

const tooLarge = () => new ApiError(413, 'thumbnail_too_large', {}, { field: 'path', issue: 'too_large' });
const unsupported = () => new ApiError(415, 'thumbnail_unsupported', {}, { field: 'path', issue: 'unsupported' }, 'validation');
const unreadable = () => new ApiError(422, 'thumbnail_unreadable', {}, { field: 'path', issue: 'unreadable' }, 'validation');

async function readCached(driver: StorageDriver, key: string): Promise<Buffer | undefined> {
  try {
    return (await driver.head(key)) ? await readBounded(await driver.get(key), MAX_SOURCE_BYTES) : undefined;
  } catch (error) {
    if (error instanceof ObjectNotFoundError) return undefined;
    throw error;
  }
}

async function renderInputOf(source: ThumbnailSource): Promise<RenderInput> {
  const kind = sourceKindOf(source.mimetype);
  if (!kind) throw unsupported();
  if (kind === 'video') {
    // Enough of the start for a frame; a file whose index lies at its end gives none (unreadable, not a hang).
    const end = Math.min(source.size, MAX_SOURCE_BYTES) - 1;
    return { kind, stream: await source.driver.get(source.key, end >= 0 ? { start: 0, end } : undefined) };
  }
  if (source.size > MAX_SOURCE_BYTES) throw tooLarge();
  const bytes = await readBounded(await source.driver.get(source.key), MAX_SOURCE_BYTES);
  return kind === 'image' ? { kind, bytes } : { kind, stream: Readable.from([bytes]) };
}

async function render(source: ThumbnailSource, size: ThumbnailSize): Promise<Buffer> {
  try {
    return await renderThumbnail(await renderInputOf(source), size);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (error instanceof ObjectNotFoundError) throw new ApiError(404, 'file_missing');
    if (error instanceof TooManyPixelsError) throw tooLarge();
    if (error instanceof ToolError && error.problem === 'missing') throw unsupported();
    if (error instanceof ToolError && error.problem === 'too_large') throw tooLarge();
    // A corrupt or hostile file, a decoder's failure or timeout: the file's fault, said without the decoder's words.
    throw unreadable();
  }
}

/** Keeps a new thumbnail and removes those of the source's older versions; a storage that refuses costs nothing. */
async function keep(source: ThumbnailSource, place: ReturnType<typeof cachePlaceOf>, bytes: Buffer): Promise<void> {
  try {
    await source.driver.put(place.key, Readable.from([bytes]), { contentType: 'image/webp' });
    const listing = await source.driver.list(place.folder);
    const stale = listing.objects.filter((object) => !object.key.split('/').pop()?.startsWith(`${place.version}-`));
    await Promise.all(stale.map((object) => source.driver.delete(object.key)));
  } catch (error) {
    log.warn(`Thumbnail cache: could not keep a thumbnail (${describeError(error)}); it is made again next time.`);
  }
}

/**
 * The thumbnail of `source` at `size`: from the cache, or made now (at most two at once) and kept. The caller has
 * checked that the asker may read the source; `signal` tells that the asker has gone (a tile scrolled away).
 */
export async function thumbnailOf(source: ThumbnailSource, size: ThumbnailSize, signal?: AbortSignal): Promise<Thumbnail> {
  if (!sourceKindOf(source.mimetype)) throw unsupported();
  const place = cachePlaceOf(source, size);
  const cached = await readCached(source.driver, place.key);
  if (cached) return { bytes: cached, etag: place.etag };
  const id = `${source.storageId}\n${place.key}`;
  let entry = making.get(id);
  if (!entry) {
    const gone = new AbortController();
    const result = runLimited(() => render(source, size), gone.signal)
      .then(async (bytes) => {
        await keep(source, place, bytes);
        return { bytes, etag: place.etag };
      })
      .finally(() => making.get(id)?.gone === gone && making.delete(id));
    entry = { result, askers: 0, gone };
    making.set(id, entry);
  }
  const shared = entry;
  shared.askers++;
  // Once every asker has gone, a making still in line leaves it (one already running goes on, and is kept); an
  // asker without a signal (a program's own call) keeps it to the end.
  signal?.addEventListener('abort', () => --shared.askers === 0 && shared.gone.abort(new ApiError(503, 'thumbnail_busy')), { once: true });
  return shared.result;
}

/** The ETag a thumbnail of `source` at `size` would have, to answer 304 without reading anything. */
export const thumbnailEtagOf = (source: ThumbnailSource, size: ThumbnailSize): string => cachePlaceOf(source, size).etag;
