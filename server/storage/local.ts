import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, lstat, mkdir, open, readdir, readFile, rename, rm, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { dirname, join, resolve, sep } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MAX_PART_COUNT } from '../../contract/parts';
import type { SecretBox } from '../security/secret-box';
import {
  assertSafeFolder,
  assertSafeKey,
  InvalidPartError,
  matchParts,
  MultipartUploadNotFoundError,
  ObjectNotFoundError,
  UnsafeKeyError,
  type ByteRange,
  type FolderListing,
  type ListedObject,
  type ObjectHead,
  type StorageDriver,
  type StoredPart,
} from './driver';
import { expiryFrom, signLocalGroupUrl, signLocalUrl } from './local-urls';

export interface LocalDriverOptions {
  /** The folder of this config: `DATA_DIR/storage/<config id>`. */
  root: string;
  configId: string;
  secrets: SecretBox;
  now: () => Date;
}

/** Staging for writes in progress and per-object metadata: dot-folders, which no key can name. */
const STAGING = '.staging';
const META = '.meta';
/** Multipart uploads: `.staging/multipart/<upload id>/` holds `upload.json` and the parts. */
const MULTIPART = 'multipart';
const UPLOAD_ID = /^[0-9a-f]{32}$/;
/**
 * Streams `source` through `counter` into a new file at `path`. On failure the file is removed once its stream has
 * closed: a failure can come while the file is still being opened, and a remove before that would run first and
 * leave the file behind.
 */
async function writeNewFile(source: Readable | (() => AsyncIterable<Buffer>), counter: Transform, path: string): Promise<void> {
  const file = createWriteStream(path, { flags: 'wx' });
  try {
    await pipeline(source, counter, file);
  } catch (error) {
    if (!file.closed) await once(file, 'close').catch(() => undefined);
    await rm(path, { force: true });
    throw error;
  }
}

/** A stored part: `<number>.<md5 hex>.part`, so that its number and ETag arrive together with one rename. */
const PART_FILE = /^(\d{1,5})\.([0-9a-f]{32})\.part$/;
/** Read size when joining parts. */
const JOIN_CHUNK = 1024 * 1024;

/** The LOCAL driver; its signed part URLs store parts with `uploadPart`. */
export interface LocalStorageDriver extends StorageDriver {
  readonly type: 'LOCAL';
  /**
   * The size of the file at `key` (undefined: none, or a folder), without its ETag: what a read group checks. A
   * file put there by hand is not hashed for it (head would read it whole the first time).
   */
  sizeOf(key: string): Promise<number | undefined>;
}

/**
 * One thing at a time per upload within this process: storing a finished part (rename and drop the part it
 * replaces), joining, aborting. Bytes stream outside the lock; only the short file-system steps queue.
 */
const uploadLocks = new Map<string, Promise<unknown>>();
async function locked<T>(id: string, work: () => Promise<T>): Promise<T> {
  const run = (uploadLocks.get(id) ?? Promise.resolve()).then(work, work);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  uploadLocks.set(id, tail);
  try {
    return await run;
  } finally {
    if (uploadLocks.get(id) === tail) uploadLocks.delete(id);
  }
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';

/** The size of the file at `file`; undefined when there is none, or a folder (not an object). */
async function fileSize(file: string): Promise<number | undefined> {
  try {
    const info = await stat(file);
    return info.isFile() ? info.size : undefined;
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** Counts and hashes what passes through. */
class Md5Counter extends Transform {
  readonly hash = createHash('md5');
  bytes = 0;
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null, data?: Buffer) => void) {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    callback(null, chunk);
  }
}

/**
 * A folder on the server's disk. Writes go to a staging file and are renamed into place when complete, so a
 * reader never sees a partial object. The ETag is the MD5 hex of the bytes, kept beside the object so that
 * HEAD does not read the whole file.
 */
export function createLocalDriver(options: LocalDriverOptions): LocalStorageDriver {
  const root = resolve(options.root);

  /** The absolute path of a key: refused unless it is strictly inside root. */
  const pathOf = (key: string, base = root) => {
    assertSafeKey(key);
    const full = resolve(base, ...key.split('/'));
    if (!full.startsWith(base + sep)) throw new UnsafeKeyError(key);
    return full;
  };
  const metaPathOf = (key: string) => `${pathOf(key, join(root, META))}.json`;

  /**
   * The absolute path of a key, refused when a symbolic link is anywhere on the way (or is the object itself): a
   * link planted in the folder must not expose the rest of the disk, nor a folder outside a key's base path.
   */
  async function confinedPathOf(key: string): Promise<string> {
    const full = pathOf(key);
    await assertConfined(full, key);
    return full;
  }
  const folderPathOf = async (folder: string) => {
    assertSafeFolder(folder);
    if (folder === '') return root;
    return confinedPathOf(folder);
  };

  /** No link is followed on the way from root to a path: not out of root, nor to a sibling a caller may not see. */
  async function assertConfined(full: string, key: string) {
    let probe = root;
    for (const segment of full.slice(root.length + 1).split(sep)) {
      probe = join(probe, segment);
      try {
        if ((await lstat(probe)).isSymbolicLink()) throw new UnsafeKeyError(key);
      } catch (error) {
        if (isMissing(error)) return; // not there yet: nothing further can be a link
        throw error;
      }
    }
  }

  /** What a listing says of a file: size and time from the disk, the ETag only when its metadata is at hand. */
  async function listedFile(key: string, file: string): Promise<ListedObject | undefined> {
    let info;
    try {
      info = await lstat(file);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    if (!info.isFile()) return undefined;
    let etag: string | null = null;
    try {
      const meta = JSON.parse(await readFile(metaPathOf(key), 'utf8')) as ObjectHead;
      if (meta.size === info.size) etag = meta.etag;
    } catch {
      // No metadata yet: `stat` hashes the file when someone asks for it.
    }
    return { key, size: info.size, etag, modified: info.mtime };
  }

  /** Entries of one folder on disk, links never followed, LOCAL's own dot-folders hidden. */
  async function readFolder(folder: string, dir: string): Promise<FolderListing> {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return { folders: [], objects: [] };
      throw error;
    }
    const keyOf = (name: string) => (folder === '' ? name : `${folder}/${name}`);
    const folders: string[] = [];
    const files: Promise<ListedObject | undefined>[] = [];
    for (const entry of entries) {
      if (folder === '' && (entry.name === STAGING || entry.name === META)) continue;
      if (entry.isDirectory()) folders.push(keyOf(entry.name));
      else if (entry.isFile()) files.push(listedFile(keyOf(entry.name), join(dir, entry.name)));
    }
    const objects = (await Promise.all(files)).filter((object): object is ListedObject => object !== undefined);
    return { folders, objects };
  }

  async function writeMeta(key: string, head: ObjectHead) {
    const file = metaPathOf(key);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify(head));
  }

  /** Removes now-empty folders from `dir` up to (not including) `stop`. */
  async function pruneEmpty(dir: string, stop: string) {
    while (dir.startsWith(stop + sep)) {
      try {
        await rmdir(dir);
      } catch {
        return;
      }
      dir = dirname(dir);
    }
  }

  /** The folder of an upload of `key`; MultipartUploadNotFoundError unless it exists and belongs to that key. */
  async function uploadDir(key: string, uploadId: string): Promise<string> {
    pathOf(key);
    if (!UPLOAD_ID.test(uploadId)) throw new MultipartUploadNotFoundError(uploadId);
    const dir = join(root, STAGING, MULTIPART, uploadId);
    try {
      const upload = JSON.parse(await readFile(join(dir, 'upload.json'), 'utf8')) as { key?: unknown };
      if (upload.key === key) return dir;
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    throw new MultipartUploadNotFoundError(uploadId);
  }

  async function storedParts(dir: string): Promise<(StoredPart & { file: string })[]> {
    const newest = new Map<number, StoredPart & { file: string; mtime: number }>();
    for (const name of await readdir(dir)) {
      const match = PART_FILE.exec(name);
      if (!match) continue;
      const file = join(dir, name);
      let info;
      try {
        info = await stat(file);
      } catch (error) {
        if (isMissing(error)) continue;
        throw error;
      }
      const partNumber = Number(match[1]);
      const seen = newest.get(partNumber);
      if (!seen || info.mtimeMs > seen.mtime) {
        newest.set(partNumber, { partNumber, size: info.size, etag: match[2] ?? '', file, mtime: info.mtimeMs });
      }
    }
    return [...newest.values()].sort((a, b) => a.partNumber - b.partNumber).map(({ mtime: _mtime, ...part }) => part);
  }

  const lockId = (uploadId: string) => `${root}:${uploadId}`;

  async function hashFile(file: string): Promise<ObjectHead> {
    const counter = new Md5Counter();
    const handle = await open(file, 'r');
    counter.resume();
    await pipeline(handle.createReadStream(), counter);
    return { size: counter.bytes, etag: counter.hash.digest('hex') };
  }

  return {
    type: 'LOCAL',

    async put(key, body: Readable) {
      const target = await confinedPathOf(key);
      const staging = join(root, STAGING, randomUUID());
      await mkdir(dirname(staging), { recursive: true });
      const counter = new Md5Counter();
      try {
        await writeNewFile(body, counter, staging);
        await mkdir(dirname(target), { recursive: true });
        const head = { size: counter.bytes, etag: counter.hash.digest('hex') };
        await writeMeta(key, head);
        await rename(staging, target);
        return head;
      } catch (error) {
        await rm(staging, { force: true });
        throw error;
      }
    },

    async get(key, range?: ByteRange) {
      let handle;
      try {
        handle = await open(await confinedPathOf(key), 'r');
      } catch (error) {
        if (isMissing(error)) throw new ObjectNotFoundError(key);
        throw error;
      }
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    },

    async sizeOf(key) {
      return fileSize(await confinedPathOf(key));
    },

    async head(key) {
      const file = await confinedPathOf(key);
      const size = await fileSize(file);
      if (size === undefined) return undefined;
      try {
        const meta = JSON.parse(await readFile(metaPathOf(key), 'utf8')) as ObjectHead;
        if (meta.size === size && typeof meta.etag === 'string') return meta;
      } catch {
        // No metadata (a file put there by hand): hash it once and remember.
      }
      const head = await hashFile(file);
      await writeMeta(key, head);
      return head;
    },

    async delete(key) {
      const file = await confinedPathOf(key);
      const meta = metaPathOf(key);
      try {
        await unlink(file);
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
      await rm(meta, { force: true });
      await pruneEmpty(dirname(file), root);
      await pruneEmpty(dirname(meta), join(root, META));
    },

    async copy(fromKey, toKey) {
      const source = await confinedPathOf(fromKey);
      const target = await confinedPathOf(toKey);
      const staging = join(root, STAGING, randomUUID());
      await mkdir(dirname(staging), { recursive: true });
      try {
        await copyFile(source, staging);
      } catch (error) {
        await rm(staging, { force: true });
        if (isMissing(error)) throw new ObjectNotFoundError(fromKey);
        throw error;
      }
      const head = (await this.head(fromKey)) ?? (await hashFile(staging));
      await mkdir(dirname(target), { recursive: true });
      await writeMeta(toKey, head);
      await rename(staging, target);
    },

    async presignPut(key, presign) {
      pathOf(key);
      return signLocalUrl(options.secrets, presign.baseUrl, {
        method: 'PUT',
        configId: options.configId,
        key,
        expires: expiryFrom(options.now(), presign.expiresInSeconds),
        size: presign.size,
      });
    },

    async presignGet(key, presign) {
      pathOf(key);
      return signLocalUrl(options.secrets, presign.baseUrl, {
        method: 'GET',
        configId: options.configId,
        key,
        expires: expiryFrom(options.now(), presign.expiresInSeconds),
        disposition: presign.disposition,
        filename: presign.filename,
        contentType: presign.contentType,
      });
    },

    async presignGroupGet(files, presign) {
      for (const { key } of files) pathOf(key);
      return signLocalGroupUrl(options.secrets, presign.baseUrl, {
        method: 'GET-GROUP',
        configId: options.configId,
        files,
        expires: expiryFrom(options.now(), presign.expiresInSeconds),
      });
    },

    objectUrl: () => null,

    async checkAccess() {
      await mkdir(root, { recursive: true });
      const probe = join(root, STAGING);
      await mkdir(probe, { recursive: true });
      await stat(probe);
    },

    async stat(key) {
      const head = await this.head(key);
      if (!head) return undefined;
      const info = await stat(await confinedPathOf(key));
      return { key, size: head.size, etag: head.etag, modified: info.mtime };
    },

    list: async (folder) => readFolder(folder, await folderPathOf(folder)),

    async listTree(folder) {
      const all: FolderListing = { folders: [], objects: [] };
      const walk = async (current: string) => {
        const level = await readFolder(current, await folderPathOf(current));
        all.objects.push(...level.objects);
        for (const sub of level.folders) {
          all.folders.push(sub);
          await walk(sub);
        }
      };
      await walk(folder);
      return all;
    },

    async folderExists(folder) {
      try {
        return (await lstat(await folderPathOf(folder))).isDirectory();
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },

    async makeFolder(folder) {
      await mkdir(await folderPathOf(folder), { recursive: true });
    },

    async removeFolder(folder) {
      if (folder === '') throw new UnsafeKeyError(folder);
      await rm(await folderPathOf(folder), { recursive: true, force: true });
      await rm(pathOf(folder, join(root, META)), { recursive: true, force: true });
    },

    async move(fromKey, toKey) {
      const source = await confinedPathOf(fromKey);
      const target = await confinedPathOf(toKey);
      const head = await this.head(fromKey);
      if (!head) throw new ObjectNotFoundError(fromKey);
      await mkdir(dirname(target), { recursive: true });
      await writeMeta(toKey, head);
      await rename(source, target);
      await rm(metaPathOf(fromKey), { force: true });
      await pruneEmpty(dirname(source), root);
    },

    async initMultipart(key, { contentType }) {
      pathOf(key);
      const uploadId = randomBytes(16).toString('hex');
      const dir = join(root, STAGING, MULTIPART, uploadId);
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, 'upload.json'), JSON.stringify({ key, contentType }), { flag: 'wx' });
      return uploadId;
    },

    async presignPart(key, uploadId, partNumber, presign) {
      pathOf(key);
      if (!UPLOAD_ID.test(uploadId)) throw new MultipartUploadNotFoundError(uploadId);
      if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MAX_PART_COUNT) throw new InvalidPartError(partNumber, 'order');
      return signLocalUrl(options.secrets, presign.baseUrl, {
        method: 'PUT',
        configId: options.configId,
        key,
        expires: expiryFrom(options.now(), presign.expiresInSeconds),
        size: presign.size,
        part: { uploadId, partNumber },
      });
    },

    async uploadPart(key, uploadId, partNumber, body) {
      if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MAX_PART_COUNT) throw new InvalidPartError(partNumber, 'order');
      const dir = await uploadDir(key, uploadId);
      // Written beside the parts: an abort meanwhile removes the folder, and the rename below then fails.
      const temp = join(dir, `${partNumber}.${randomUUID()}.tmp`);
      const counter = new Md5Counter();
      try {
        await writeNewFile(body, counter, temp);
        const part = { partNumber, size: counter.bytes, etag: counter.hash.digest('hex') };
        const name = `${partNumber}.${part.etag}.part`;
        await locked(lockId(uploadId), async () => {
          await rename(temp, join(dir, name));
          for (const other of await readdir(dir)) {
            if (other !== name && PART_FILE.exec(other)?.[1] === String(partNumber)) await rm(join(dir, other), { force: true });
          }
        });
        return part;
      } catch (error) {
        await rm(temp, { force: true });
        if (isMissing(error)) throw new MultipartUploadNotFoundError(uploadId);
        throw error;
      }
    },

    async listParts(key, uploadId) {
      const dir = await uploadDir(key, uploadId);
      return (await storedParts(dir)).map(({ file: _file, ...part }) => part);
    },

    async completeMultipart(key, uploadId, parts) {
      const target = await confinedPathOf(key);
      return locked(lockId(uploadId), async () => {
        const dir = await uploadDir(key, uploadId);
        const stored = new Map((await storedParts(dir)).map((part) => [part.partNumber, part]));
        const matched = matchParts(parts, [...stored.values()]);
        const staging = join(root, STAGING, randomUUID());
        const whole = new Md5Counter();
        // Part after part through one hash into one file; each part's bytes are checked against its ETag.
        const joined = async function* () {
          for (const part of matched) {
            const file = stored.get(part.partNumber)?.file ?? '';
            const partHash = createHash('md5');
            for await (const chunk of createReadStream(file, { highWaterMark: JOIN_CHUNK }) as AsyncIterable<Buffer>) {
              partHash.update(chunk);
              yield chunk;
            }
            if (partHash.digest('hex') !== part.etag) throw new InvalidPartError(part.partNumber, 'etag_mismatch');
          }
        };
        try {
          await writeNewFile(joined, whole, staging);
          const head = { size: whole.bytes, etag: whole.hash.digest('hex') };
          await mkdir(dirname(target), { recursive: true });
          await writeMeta(key, head);
          await rename(staging, target);
          await rm(dir, { recursive: true, force: true });
          return head.etag;
        } catch (error) {
          await rm(staging, { force: true });
          throw error;
        }
      });
    },

    async abortMultipart(key, uploadId) {
      pathOf(key);
      await locked(lockId(uploadId), async () => {
        let dir: string;
        try {
          dir = await uploadDir(key, uploadId);
        } catch (error) {
          if (error instanceof MultipartUploadNotFoundError) return;
          throw error;
        }
        await rm(dir, { recursive: true, force: true });
      });
    },
  };
}
