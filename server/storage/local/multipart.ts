import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { InvalidPartError, matchParts, MultipartUploadNotFoundError, type CompletedPart, type PresignPartOptions, type StoredPart } from '../driver';
import { DigestCounter, placeFile, stagingFileOf, writeNewFile } from './disk';
import { signKeyUrl } from './presign';
import { confinedPathOf, isMissing, pathOf, type LocalContext } from './root';
import { crc32Digest, partDigestOf } from './digest';
import { assertPartNumber, assertUploadId, locked, PART_FILE, storedParts, uploadDir, uploadDirOf } from './uploads';

/** Read size when joining parts. */
const JOIN_CHUNK = 1024 * 1024;

export async function initMultipart(context: LocalContext, key: string, contentType: string): Promise<string> {
  pathOf(context, key);
  const uploadId = randomBytes(16).toString('hex');
  const dir = uploadDirOf(context, uploadId);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'upload.json'), JSON.stringify({ key, contentType }), { flag: 'wx' });
  return uploadId;
}

/** A signed URL whose PUT the LOCAL storage route stores with `uploadPart`. */
export async function presignPart(
  context: LocalContext,
  key: string,
  uploadId: string,
  partNumber: number,
  presign: PresignPartOptions,
): Promise<string> {
  pathOf(context, key); // an unsafe key is refused before its upload id or part number
  assertUploadId(uploadId);
  assertPartNumber(partNumber);
  return signKeyUrl(context, key, presign, { method: 'PUT', size: presign.size, part: { uploadId, partNumber } });
}

export async function uploadPart(context: LocalContext, key: string, uploadId: string, partNumber: number, body: Readable): Promise<StoredPart> {
  assertPartNumber(partNumber);
  const dir = await uploadDir(context, key, uploadId);
  // Written beside the parts: an abort meanwhile removes the folder, and the rename below then fails.
  const temp = join(dir, `${partNumber}.${randomUUID()}.tmp`);
  const counter = new DigestCounter(crc32Digest());
  try {
    await writeNewFile(body, counter, temp);
    const part = { partNumber, ...counter.head() };
    const name = `${partNumber}.${part.etag}.part`;
    await locked(context, uploadId, async () => {
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
}

export async function listParts(context: LocalContext, key: string, uploadId: string): Promise<StoredPart[]> {
  const dir = await uploadDir(context, key, uploadId);
  return (await storedParts(dir)).map(({ file: _file, ...part }) => part);
}

/** A staged part's file, read as it is, unchecked. */
export const stagedBytes = (file: string): AsyncIterable<Buffer> => createReadStream(file, { highWaterMark: JOIN_CHUNK });

/**
 * The bytes of the matched parts one after another, each streamed from its file and checked against its ETag (a
 * part changed on disk since it was stored fails the join).
 */
export async function* joinedParts(matched: StoredPart[], stored: Map<number, StoredPart & { file: string }>): AsyncGenerator<Buffer> {
  for (const part of matched) {
    const file = stored.get(part.partNumber)?.file ?? '';
    const digest = partDigestOf(part.etag);
    for await (const chunk of stagedBytes(file)) {
      digest.update(chunk);
      yield chunk;
    }
    if (digest.hex() !== part.etag) throw new InvalidPartError(part.partNumber, 'etag_mismatch');
  }
}

export async function completeMultipart(context: LocalContext, key: string, uploadId: string, parts: CompletedPart[]): Promise<string> {
  const target = await confinedPathOf(context, key);
  return locked(context, uploadId, async () => {
    const dir = await uploadDir(context, key, uploadId);
    const stored = new Map((await storedParts(dir)).map((part) => [part.partNumber, part]));
    const matched = matchParts(parts, [...stored.values()]);
    const staging = await stagingFileOf(context);
    const whole = new DigestCounter();
    try {
      await writeNewFile(() => joinedParts(matched, stored), whole, staging);
      const head = whole.head();
      await placeFile(context, staging, key, target, head);
      await rm(dir, { recursive: true, force: true });
      return head.etag;
    } catch (error) {
      await rm(staging, { force: true });
      throw error;
    }
  });
}

export async function abortMultipart(context: LocalContext, key: string, uploadId: string): Promise<void> {
  pathOf(context, key);
  await locked(context, uploadId, async () => {
    let dir: string;
    try {
      dir = await uploadDir(context, key, uploadId);
    } catch (error) {
      if (error instanceof MultipartUploadNotFoundError) return;
      throw error;
    }
    await rm(dir, { recursive: true, force: true });
  });
}
