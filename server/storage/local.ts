import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, open, readFile, rename, rm, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { SecretBox } from '../security/secret-box';
import {
  assertSafeKey,
  ObjectNotFoundError,
  UnsafeKeyError,
  type ByteRange,
  type ObjectHead,
  type StorageDriver,
} from './driver';
import { expiryFrom, signLocalUrl } from './local-urls';

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

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';

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
export function createLocalDriver(options: LocalDriverOptions): StorageDriver {
  const root = resolve(options.root);

  /** The absolute path of a key: refused unless it is strictly inside root. */
  const pathOf = (key: string, base = root) => {
    assertSafeKey(key);
    const full = resolve(base, ...key.split('/'));
    if (!full.startsWith(base + sep)) throw new UnsafeKeyError(key);
    return full;
  };
  const metaPathOf = (key: string) => `${pathOf(key, join(root, META))}.json`;

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
      const target = pathOf(key);
      const staging = join(root, STAGING, randomUUID());
      await mkdir(dirname(staging), { recursive: true });
      const counter = new Md5Counter();
      try {
        await pipeline(body, counter, createWriteStream(staging, { flags: 'wx' }));
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
        handle = await open(pathOf(key), 'r');
      } catch (error) {
        if (isMissing(error)) throw new ObjectNotFoundError(key);
        throw error;
      }
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    },

    async head(key) {
      const file = pathOf(key);
      let size: number;
      try {
        size = (await stat(file)).size;
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
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
      const file = pathOf(key);
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
      const source = pathOf(fromKey);
      const target = pathOf(toKey);
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

    objectUrl: () => null,

    async checkAccess() {
      await mkdir(root, { recursive: true });
      const probe = join(root, STAGING);
      await mkdir(probe, { recursive: true });
      await stat(probe);
    },
  };
}
