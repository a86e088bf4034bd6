import type { Readable } from 'node:stream';
import { MAX_PART_COUNT, MIN_PART_BYTES } from '../../contract/parts';
import type { StorageType } from '../../contract/storage';

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

export interface PresignPartOptions {
  /** Most bytes this part may have (LOCAL refuses a larger body; S3 enforces its own limits). */
  size: number;
  expiresInSeconds: number;
  baseUrl: string;
}

export interface PartOptions {
  /** The body's length when the client said it (S3 needs it to stream; without it the part is read into memory first). */
  size?: number;
  /**
   * The sender keeps the part's bytes and sends again any part that a later listing or completing lacks (the
   * worker's upload pipeline does): a storage that relays parts may then pass this one on without a copy of its own.
   */
  resendable?: boolean;
}

/** A part the storage holds for a multipart upload. */
export interface StoredPart {
  partNumber: number;
  size: number;
  /** Without quotes. */
  etag: string;
}

/** A part named by the client when completing: its number and the ETag its PUT answered. */
export interface CompletedPart {
  partNumber: number;
  etag: string;
}

/**
 * One interface over every kind of storage. Keys are built by the server only (see keys.ts) and every driver
 * refuses keys that could leave its root (`..`, absolute paths, backslashes, control characters).
 */
export interface StorageDriver {
  readonly type: StorageType;
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
  /**
   * One URL that GETs several whole objects, their bytes one after another in the order given (each must still
   * have the size given); only where the storage is served by this server (LOCAL, WebDAV, SFTP, FTP). S3 has none.
   */
  presignGroupGet?(files: { key: string; size: number }[], options: { expiresInSeconds: number; baseUrl: string }): Promise<string>;
  /** Where the object lives for S3 (the `s3_url` of a file record); null for the others. */
  objectUrl(key: string): string | null;
  /** Throws when the storage cannot be listed or read at all (wrong credentials, missing bucket or folder). */
  checkAccess(): Promise<void>;

  // Folders, for the mount file system. A folder is a key prefix without its trailing slash; '' is the root.
  /** One object with its modification time; undefined when there is none (a folder is not an object). */
  stat(key: string): Promise<ListedObject | undefined>;
  /** The direct subfolders and objects of a folder (empty when it does not exist). */
  list(folder: string): Promise<FolderListing>;
  /** Every folder and object below a folder, at any depth. */
  listTree(folder: string): Promise<FolderListing>;
  /** Whether the folder exists: it holds something, or was made empty (LOCAL folder, S3 marker object). */
  folderExists(folder: string): Promise<boolean>;
  /** Makes the folder (and its parents); an existing folder is not an error. */
  makeFolder(folder: string): Promise<void>;
  /** Removes the folder and everything in it; a missing folder is not an error. */
  removeFolder(folder: string): Promise<void>;
  /** Moves one object (S3: copy, then delete the source). */
  move(fromKey: string, toKey: string): Promise<void>;

  // Multipart uploads: the client PUTs numbered parts (1..10,000) straight to storage, then they are joined.
  /** Starts a multipart upload of `key`; answers its upload id. */
  initMultipart(key: string, options: { contentType: string }): Promise<string>;
  /** A URL the client PUTs part `partNumber` to; its answer carries the part's ETag (readable by pages). */
  presignPart(key: string, uploadId: string, partNumber: number, options: PresignPartOptions): Promise<string>;
  /** Stores part `partNumber` from a stream through the server, replacing an earlier one. */
  uploadPart(key: string, uploadId: string, partNumber: number, body: Readable, options?: PartOptions): Promise<StoredPart>;
  /** The parts stored so far, by part number. Throws MultipartUploadNotFoundError for an unknown upload. */
  listParts(key: string, uploadId: string): Promise<StoredPart[]>;
  /**
   * Joins the given parts (ascending part numbers, each with the ETag its PUT answered) into the object and ends
   * the upload; answers the object's ETag. Throws InvalidPartError when a part is missing, has another ETag,
   * or (but the last) is under 5 MiB; MultipartUploadNotFoundError when the upload is gone.
   */
  completeMultipart(key: string, uploadId: string, parts: CompletedPart[]): Promise<string>;
  /** Drops the upload and every stored part; an unknown upload is not an error. */
  abortMultipart(key: string, uploadId: string): Promise<void>;
  /** Copies the storage service makes itself between drivers of one scope (S3); absent where there are none. */
  readonly serviceCopy?: ServiceCopy;
}

/**
 * A driver whose bytes pass through this server (LOCAL, and WebDAV, SFTP and FTP, which have no signed URLs of their
 * own): its signed URLs name this server's `/api/local-storage` route, which serves them with these calls.
 */
export interface RelayedStorageDriver extends StorageDriver {
  /** The size of the object at `key` (undefined: none, or a folder), without working out its ETag: what a read group checks. */
  sizeOf(key: string): Promise<number | undefined>;
}

export const isRelayed = (driver: StorageDriver): driver is RelayedStorageDriver => driver.type !== 'S3';

/** An object as a storage service names it for a copy made by the service itself. */
export interface ServiceObject {
  bucket: string;
  key: string;
}

/**
 * Copies made by the storage service itself, between two drivers of one `scope`: no byte passes through this
 * server. Only S3 drivers have it.
 */
export interface ServiceCopy {
  /**
   * Equal for two drivers when the service can copy between them: one endpoint and region, one set of credentials
   * (so the target's requests can read what the source's can). A digest: it holds no secret.
   */
  readonly scope: string;
  /** The largest object one `copyObject` copies; larger ones are copied in parts (`copyPart`). */
  readonly maxObjectBytes: number;
  /** Where `key` of this driver lives, for a copy into another driver of the same scope. */
  objectOf(key: string): ServiceObject;
  /**
   * CopyObject of a whole object (at most `maxObjectBytes`) into `toKey`, whole or not at all, with the source's
   * content type and metadata (as `copy` keeps them); answers its ETag.
   */
  copyObject(from: ServiceObject, toKey: string): Promise<string>;
  /** UploadPartCopy: bytes `range` of `from` as part `partNumber`, only while `from` still has ETag `ifMatch`. */
  copyPart(from: ServiceObject, range: ByteRange, ifMatch: string, to: { key: string; uploadId: string; partNumber: number }): Promise<StoredPart>;
}

/** An object as listings show it. */
export interface ListedObject {
  key: string;
  size: number;
  /** Without quotes; null where a listing does not say. */
  etag: string | null;
  modified: Date | null;
}

/** Folders are full keys of the folders (no trailing slash); objects carry full keys too. */
export interface FolderListing {
  folders: string[];
  objects: ListedObject[];
}


export class MultipartUploadNotFoundError extends Error {
  constructor(readonly uploadId: string) {
    super(`No multipart upload ${uploadId}`);
    this.name = 'MultipartUploadNotFoundError';
  }
}

/**
 * A part list the storage cannot join: `missing` (no such part stored), `etag_mismatch` (stored with another
 * ETag), `too_small` (under 5 MiB and not the last), `order` (part numbers not strictly ascending).
 */
export class InvalidPartError extends Error {
  /** Every part number the problem concerns, ascending (`partNumber` is the first); a client sends them again. */
  readonly partNumbers: number[];

  constructor(
    readonly partNumber: number,
    readonly problem: 'missing' | 'etag_mismatch' | 'too_small' | 'order',
    partNumbers: number[] = [partNumber],
  ) {
    super(`Part ${partNumber}: ${problem}`);
    this.partNumbers = partNumbers;
    this.name = 'InvalidPartError';
  }
}

/**
 * Checks a part list against what storage holds, as S3 does on complete: part numbers strictly ascending,
 * each stored with the given ETag, each but the last at least 5 MiB. Answers the stored parts in order.
 */
export function matchParts(given: CompletedPart[], stored: StoredPart[]): StoredPart[] {
  let previous = 0;
  for (const part of given) {
    if (!Number.isInteger(part.partNumber) || part.partNumber <= previous || part.partNumber > MAX_PART_COUNT) {
      throw new InvalidPartError(part.partNumber, 'order');
    }
    previous = part.partNumber;
  }
  const byNumber = new Map(stored.map((part) => [part.partNumber, part]));
  const pairs = given.map((part) => ({ part, found: byNumber.get(part.partNumber) }));
  const missing = pairs.filter(({ found }) => !found).map(({ part }) => part.partNumber);
  if (missing[0] !== undefined) throw new InvalidPartError(missing[0], 'missing', missing);
  const matched = pairs.map(({ part, found }) => {
    if (!found || bareEtag(part.etag).toLowerCase() !== found.etag.toLowerCase()) throw new InvalidPartError(part.partNumber, 'etag_mismatch');
    return found;
  });
  matched.forEach((part, index) => {
    if (index < matched.length - 1 && part.size < MIN_PART_BYTES) throw new InvalidPartError(part.partNumber, 'too_small');
  });
  return matched;
}

export class ObjectNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`No object at ${key}`);
    this.name = 'ObjectNotFoundError';
  }
}

/** The source of a copy is not the object the copy was planned for any more (another size or ETag). */
export class SourceChangedError extends Error {
  constructor(readonly key: string) {
    super(`The object at ${key} changed during the copy`);
    this.name = 'SourceChangedError';
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

/** Longest key (bytes of UTF-8): S3's limit, kept by every driver so that a mount can move between storages. */
export const MAX_KEY_BYTES = 1024;

/** LOCAL keeps writes in progress and object metadata under these folders: no key may name them. */
const RESERVED_SEGMENTS = new Set(['.', '..', '.staging', '.meta']);

/**
 * Keys are `/`-separated relative paths whose segments are non-empty, never `.` or `..`, and never the names
 * LOCAL reserves for its staging and metadata. Other dot-files (`.gitignore`, `.DS_Store`) are ordinary names.
 */
export function assertSafeKey(key: string): void {
  if (
    key.length === 0 ||
    Buffer.byteLength(key) > MAX_KEY_BYTES ||
    key.startsWith('/') ||
    key.includes('\\') ||
    CONTROL.test(key) ||
    key.split('/').some((segment) => segment.length === 0 || RESERVED_SEGMENTS.has(segment))
  ) {
    throw new UnsafeKeyError(key);
  }
}

/** A folder key: '' (the root) or a safe key. */
export function assertSafeFolder(folder: string): void {
  if (folder !== '') assertSafeKey(folder);
}

/** `"abc"` / `W/"abc"` / `abc` → `abc`. */
export const bareEtag = (etag: string | undefined): string => (etag ?? '').trim().replace(/^W\//, '').replace(/^"|"$/g, '');
