import { beforeAll, describe, expect, it } from 'vitest';
import { MIN_PART_BYTES } from '../../../contract/parts';
import { fileShareSchema } from '../../../contract/files';
import { multipartInitResponseSchema, multipartSignResponseSchema } from '../../../contract/multipart';
import { storageConfigSchema } from '../../../contract/storage';
import { bytesOf, fileClient, md5, patternBytes, stagedPartEtag } from '../../../tests/fixtures/files';
import { createMount, fsClient } from '../../../tests/fixtures/fs';
import { memoryRemoteFileSystem } from '../../../tests/fixtures/memory-remote-fs';
import { expectOk, useTestApp } from '../../../tests/fixtures/test-app';

/**
 * The signed-URL route and the share flows over a WebDAV config whose server is a file system in memory: the
 * remote driver behind the same URLs as LOCAL, single PUTs and multipart parts alike.
 */
describe('signed URLs of a WebDAV storage (in memory)', () => {
  const fs = memoryRemoteFileSystem({ copy: true });
  const t = useTestApp({
    remoteFileSystemOf: () => fs,
    urlFetch: { resolve: async () => [{ address: '203.0.113.7', family: 4 }] },
  });
  let configId: string;
  let f: ReturnType<typeof fileClient>;

  beforeAll(async () => {
    f = fileClient(t);
    await fs.mkdir('/clips');
    const config = await expectOk(
      await t.request('/api/s3-configs', {
        token: t.token,
        json: { storage_type: 'WEBDAV', name: 'Dav', endpoint_url: 'https://dav.example.com/dav', username: 'u', password: 'p', default_folder: 'clips' },
      }),
      storageConfigSchema,
      201,
    );
    configId = config.id;
  });

  it('takes a presigned PUT through this server into the remote folder, and serves it back with a range', async () => {
    const bytes = patternBytes(3000);
    const { presigned, share, etag } = await f.directUpload(bytes, { token: t.token }, { s3_config_id: configId });
    expect(new URL(presigned.upload_url).pathname.startsWith(`/api/local-storage/${configId}/`)).toBe(true);
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    // The config's folder is the base on the server; the key inside it does not name that folder again.
    expect(presigned.storage_path).toMatch(/^\.clipstash-shares\/[^/]+$/);
    expect(fs.files()).toEqual([`/clips/${presigned.storage_path}`]);
    const ranged = await f.download(share.slug, '', { token: t.token, headers: { range: 'bytes=10-19' } });
    expect(ranged.status).toBe(206);
    expect(await bytesOf(ranged)).toEqual(bytes.subarray(10, 20));
  });

  it('stages parts on this server and completes them into one remote file', async () => {
    const bytes = patternBytes(MIN_PART_BYTES + 1000, 3);
    const init = await expectOk(
      await t.request('/api/s3/multipart/init', { token: t.token, json: { s3_config_id: configId, filename: 'big.bin', size: bytes.length, part_size: MIN_PART_BYTES } }),
      multipartInitResponseSchema,
    );
    const signed = await expectOk(
      await t.request('/api/s3/multipart/sign', { token: t.token, json: { file_id: init.file_id, upload_id: init.upload_id, partNumbers: [1, 2] } }),
      multipartSignResponseSchema,
    );
    const slices = [bytes.subarray(0, MIN_PART_BYTES), bytes.subarray(MIN_PART_BYTES)];
    const parts = [];
    for (const [index, url] of signed.urls.entries()) {
      const res = await f.putTo(url.url, slices[index] as Buffer<ArrayBuffer>, 'application/octet-stream');
      expect(res.status).toBe(200);
      parts.push({ partNumber: url.partNumber, etag: (res.headers.get('etag') ?? '').replace(/"/g, '') });
    }
    expect(parts.map((part) => part.etag)).toEqual(slices.map((slice) => stagedPartEtag(slice)));
    // Nothing reaches the remote server before the parts are joined.
    expect(fs.files().some((path) => path.endsWith('big.bin'))).toBe(false);
    const share = await expectOk(
      await t.request('/api/s3/multipart/complete', { token: t.token, json: { file_id: init.file_id, upload_id: init.upload_id, parts } }),
      fileShareSchema,
      201,
    );
    expect(fs.files().filter((path) => path.endsWith('big.bin'))).toHaveLength(1);
    expect(md5(await bytesOf(await f.download(share.slug, '', { token: t.token })))).toBe(md5(bytes));
  });

  it('mounts the base folder itself: a file uploaded at the mount’s top is at the top of that folder', async () => {
    await createMount(t, t.token, { name: 'Dav', storage_type: 'WEBDAV', storage_config_id: configId, mount_path: '/nas' });
    const files = fsClient(t, { token: t.token });
    await files.uploadOk('/nas', 'notes.txt', patternBytes(10));
    expect(fs.files()).toContain('/clips/notes.txt');
    expect(await files.names('/nas')).toContain('notes.txt');
  });

  it('closes the old file system when the config changes', async () => {
    expect(fs.closed).toBe(false);
    // A config's version is its update time: the edit comes a moment later.
    t.clock.advance(1000);
    await expectOk(await t.request(`/api/s3-configs/${configId}`, { token: t.token, method: 'PUT', json: { name: 'Dav renamed' } }), storageConfigSchema);
    await f.presignOk({ filename: 'again.bin', size: 1, s3_config_id: configId }, { token: t.token });
    expect(fs.closed).toBe(true);
  });
});
