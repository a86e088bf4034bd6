import type { Readable } from 'node:stream';

/** Bytes `start` to `end` of an object, both inclusive (as HTTP ranges count). */
export interface ByteRange {
  start: number;
  end: number;
}

export interface ObjectHead {
  size: number;
  /** The object's ETag without quotes (the MD5 hex of the bytes for single-part objects). */
  etag: string;
}

export interface PresignPutOptions {
  contentType: string;
  /** Bytes the client declared; LOCAL refuses a body larger than this. */
  size: number;
  expiresInSeconds: number;
  /** Origin of this server as the client reaches it (LOCAL URLs point here). */
  baseUrl: string;
}

export interface PresignGetOptions {
  expiresInSeconds: number;
  baseUrl: string;
  disposition: 'inline' | 'attachment';
  filename: string;
  contentType: string;
}

/**
 * One interface over every kind of storage. Keys are built by the server only (see keys.ts) and every driver
 * refuses keys that could leave its root (`..`, absolute paths, backslashes, control characters).
 */
export interface StorageDriver {
  readonly type: 'LOCAL' | 'S3';
  /** Streams `body` into `key`; the object appears whole or not at all. A failed body leaves nothing behind. */
  put(key: string, body: Readable, options: { contentType: string }): Promise<ObjectHead>;
  /** The object's bytes, or a range of them. Throws ObjectNotFoundError before any byte when it is missing. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** Size and ETag; undefined when there is no such object. */
  head(key: string): Promise<ObjectHead | undefined>;
  /** Removes the object; a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Server-side copy within this storage. */
  copy(fromKey: string, toKey: string): Promise<void>;
  /** A URL the client PUTs the bytes to, valid for `expiresInSeconds`. */
  presignPut(key: string, options: PresignPutOptions): Promise<string>;
  /** A URL that GETs the bytes (Range honoured) with the given disposition and filename. */
  presignGet(key: string, options: PresignGetOptions): Promise<string>;
  /** Where the object lives for S3 (the `s3_url` of a file record); null for LOCAL. */
  objectUrl(key: string): string | null;
  /** Throws when the storage cannot be listed or read at all (wrong credentials, missing bucket or folder). */
  checkAccess(): Promise<void>;
}

export class ObjectNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`No object at ${key}`);
    this.name = 'ObjectNotFoundError';
  }
}

/** A key the server would never build: refused before it reaches a disk or a bucket. */
export class UnsafeKeyError extends Error {
  constructor(readonly key: string) {
    super(`Refused storage key ${JSON.stringify(key)}`);
    this.name = 'UnsafeKeyError';
  }
}

const CONTROL = /\p{Cc}/u;

/**
 * Keys are `/`-separated relative paths whose segments are non-empty and never start with a dot (`.`, `..`,
 * hidden files: LOCAL keeps its staging and metadata under dot-folders no key can reach).
 */
export function assertSafeKey(key: string): void {
  if (
    key.length === 0 ||
    Buffer.byteLength(key) > 1024 ||
    key.startsWith('/') ||
    key.includes('\\') ||
    CONTROL.test(key) ||
    key.split('/').some((segment) => segment.length === 0 || segment.startsWith('.'))
  ) {
    throw new UnsafeKeyError(key);
  }
}

/** `"abc"` / `W/"abc"` / `abc` → `abc`. */
export const bareEtag = (etag: string | undefined): string => (etag ?? '').replace(/^W\//, '').replace(/^"|"$/g, '');
