import { describe, expect, it } from 'vitest';
import { MIN_PART_BYTES, planUpload } from '../../../contract/parts';
import { ApiError } from '../../errors';
import { MultipartUploadNotFoundError, type CompletedPart, type StoredPart } from '../../storage/driver';
import {
  abortOnFailure,
  completeUpload,
  openPlannedUpload,
  openUpload,
  storedParts,
  type MultipartStorage,
  type OpenUpload,
  type UploadErrors,
} from './multipart-core';

/** Multipart uploads in memory, as storage keeps them: parts by upload id, gone once completed or aborted. */
class MemoryUploads implements MultipartStorage {
  readonly open = new Map<string, Map<number, StoredPart>>();
  readonly joined = new Map<string, CompletedPart[]>();
  /** What the next completeMultipart throws instead of joining. */
  completeFails: Error | undefined;
  initFails: Error | undefined;

  async initMultipart(key: string) {
    if (this.initFails) throw this.initFails;
    const uploadId = `${key}#${this.open.size + 1}`;
    this.open.set(uploadId, new Map());
    return uploadId;
  }

  async listParts(_key: string, uploadId: string) {
    const parts = this.open.get(uploadId);
    if (!parts) throw new MultipartUploadNotFoundError(uploadId);
    return [...parts.values()].sort((a, b) => a.partNumber - b.partNumber);
  }

  async completeMultipart(key: string, uploadId: string, parts: CompletedPart[]) {
    if (this.completeFails) throw this.completeFails;
    if (!this.open.delete(uploadId)) throw new MultipartUploadNotFoundError(uploadId);
    this.joined.set(key, parts);
    return 'joined';
  }

  async abortMultipart(_key: string, uploadId: string) {
    this.open.delete(uploadId);
  }

  /** A part as a client's PUT would leave it. */
  store(upload: OpenUpload, partNumber: number, size: number): CompletedPart {
    this.open.get(upload.uploadId)?.set(partNumber, { partNumber, size, etag: `etag-${partNumber}` });
    return { partNumber, etag: `"etag-${partNumber}"` };
  }
}

const errors: UploadErrors = {
  uploadGone: () => new ApiError(404, 'multipart_upload_not_found'),
  storageFailure: (error) => new ApiError(502, 'storage_unavailable', { reason: String(error) }),
};
const noCheck = () => undefined;

async function uploadWithParts(storage: MemoryUploads, sizes: number[]) {
  const upload = await openUpload(storage, 'file.bin', 'application/octet-stream', errors.storageFailure);
  const parts = sizes.map((size, index) => storage.store(upload, index + 1, size));
  return { upload, parts };
}

describe('the multipart core', () => {
  it('joins the parts a client names and answers their total size', async () => {
    const storage = new MemoryUploads();
    const { upload, parts } = await uploadWithParts(storage, [MIN_PART_BYTES, 10]);
    expect(await completeUpload(upload, parts, errors, noCheck)).toEqual({ etag: 'joined', size: MIN_PART_BYTES + 10 });
    expect(storage.joined.get('file.bin')).toEqual(parts);
    expect(storage.open.size).toBe(0);
  });

  it('checks the part list against storage before joining: the same 400s whatever the storage would say', async () => {
    const storage = new MemoryUploads();
    const { upload, parts } = await uploadWithParts(storage, [10, 10]);
    await expect(completeUpload(upload, parts, errors, noCheck)).rejects.toMatchObject({
      status: 400,
      messageKey: 'multipart_part_too_small',
      data: { field: 'parts', issue: 'too_small', partNumber: 1, size: 10 },
    });
    await expect(completeUpload(upload, [...parts, { partNumber: 3, etag: 'x' }], errors, noCheck)).rejects.toMatchObject({
      messageKey: 'multipart_part_missing',
    });
    await expect(completeUpload(upload, [{ partNumber: 1, etag: 'other' }], errors, noCheck)).rejects.toMatchObject({
      messageKey: 'multipart_part_etag_mismatch',
    });
    await expect(completeUpload(upload, [...parts].reverse(), errors, noCheck)).rejects.toMatchObject({ messageKey: 'multipart_part_order' });
    expect(storage.joined.size).toBe(0);
    // The client may send the part again and complete: the upload stays.
    expect(await storedParts(upload, errors)).toHaveLength(2);
  });

  it('lets the caller refuse the total size before anything is joined', async () => {
    const storage = new MemoryUploads();
    const { upload, parts } = await uploadWithParts(storage, [MIN_PART_BYTES, 10]);
    const seen: number[] = [];
    const refusal = new ApiError(413, 'file_too_large');
    const check = (size: number) => {
      seen.push(size);
      throw refusal;
    };
    await expect(completeUpload(upload, parts, errors, check)).rejects.toBe(refusal);
    expect(seen).toEqual([MIN_PART_BYTES + 10]);
    expect(storage.joined.size).toBe(0);
  });

  it("answers storage's failures as the caller's family does", async () => {
    const storage = new MemoryUploads();
    const { upload, parts } = await uploadWithParts(storage, [10]);
    await expect(completeUpload({ ...upload, uploadId: 'unknown' }, parts, errors, noCheck)).rejects.toMatchObject({
      status: 404,
      messageKey: 'multipart_upload_not_found',
    });
    storage.completeFails = new Error('bucket offline');
    await expect(completeUpload(upload, parts, errors, noCheck)).rejects.toMatchObject({ status: 502, params: { reason: 'Error: bucket offline' } });
    storage.initFails = new Error('bucket offline');
    await expect(openUpload(storage, 'other.bin', 'text/plain', errors.storageFailure)).rejects.toMatchObject({ status: 502 });
  });

  it('aborts the upload when a step after its start fails (complete included), leaving no stray upload', async () => {
    const storage = new MemoryUploads();
    const { upload, parts } = await uploadWithParts(storage, [10]);
    storage.completeFails = new Error('bucket offline');
    await expect(abortOnFailure(upload, () => completeUpload(upload, parts, errors, noCheck))).rejects.toMatchObject({ status: 502 });
    expect(storage.open.size).toBe(0);

    const started = await openUpload(storage, 'record.bin', 'text/plain', errors.storageFailure);
    const recordFailed = new Error('slug taken');
    await expect(abortOnFailure(started, () => Promise.reject(recordFailed))).rejects.toBe(recordFailed);
    expect(storage.open.size).toBe(0);
  });

  it('keeps the upload when the steps succeed', async () => {
    const storage = new MemoryUploads();
    const started = await openUpload(storage, 'kept.bin', 'text/plain', errors.storageFailure);
    expect(await abortOnFailure(started, async () => 'recorded')).toBe('recorded');
    expect(storage.open.has(started.uploadId)).toBe(true);
  });

  it('opens an upload planned by the shared part rules', async () => {
    const storage = new MemoryUploads();
    const size = 3 * MIN_PART_BYTES + 1;
    const planned = await openPlannedUpload(storage, 'planned.bin', 'text/plain', size, errors.storageFailure);
    expect(planned).toEqual({ uploadId: 'planned.bin#1', ...planUpload(size) });
    expect(planned.partCount).toBe(4);
  });
});
