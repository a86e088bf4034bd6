import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { davClient } from '../../../tests/fixtures/dav';
import { bytesOf, patternBytes, sha256 } from '../../../tests/fixtures/files';
import { fsClient, mountOfKind } from '../../../tests/fixtures/fs';
import type { RunningS3rver } from '../../../tests/fixtures/s3rver';
import { ADMIN_PASSWORD, ADMIN_USERNAME, useTestApp } from '../../../tests/fixtures/test-app';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 });

/** The bucket's quota: a move of more than this into it fails part-way. */
const QUOTA = 10_000;

describe.each<'LOCAL' | 'S3'>(['LOCAL', 'S3'])('WebDAV MOVE between storages, from %s', (kind) => {
  const t = useTestApp({ login: false });
  let s3: RunningS3rver | undefined;
  let fs: ReturnType<typeof fsClient>;
  let dav: ReturnType<typeof davClient>;
  let root: string;
  let other: string;

  beforeAll(async () => {
    const token = await t.login();
    fs = fsClient(t, { token });
    dav = davClient(t, ADMIN_USERNAME, ADMIN_PASSWORD);
    const bucket = await mountOfKind(t, token, 'S3', { config: { total_storage_bytes: kind === 'LOCAL' ? QUOTA : null } });
    s3 = bucket.s3;
    [root, other] = kind === 'LOCAL' ? ['/local', bucket.root] : [bucket.root, '/local'];
  });
  afterAll(async () => {
    await s3?.stop();
  });

  const sums = async (paths: string[]) => Promise.all(paths.map(async (path) => sha256(await bytesOf(await fs.download(path)))));

  it('moves a folder: every file verified in the target, the source gone', async () => {
    const files = ['a.bin', 'sub/b.bin'];
    const bytes = files.map((_, n) => patternBytes(2000 + n, n + 1));
    await dav.mkcol(`${root}/tree`);
    for (const [n, file] of files.entries()) {
      if (file.includes('/')) await dav.mkcol(`${root}/tree/sub`);
      expect((await dav.put(`${root}/tree/${file}`, bytes[n] as Uint8Array<ArrayBuffer>)).status).toBe(201);
    }
    expect((await dav.move(`${root}/tree`, `${other}/tree`)).status).toBe(201);
    expect(await sums(files.map((file) => `${other}/tree/${file}`))).toEqual(bytes.map((b) => sha256(b)));
    expect((await fs.get(`${root}/tree`)).status).toBe(404);
  });

  it.runIf(kind === 'LOCAL')('keeps every file not verified in the target when the target write fails', async () => {
    const small = patternBytes(1000, 3);
    const large = patternBytes(QUOTA * 2, 4);
    await dav.mkcol(`${root}/full`);
    expect((await dav.put(`${root}/full/1-small.bin`, small)).status).toBe(201);
    expect((await dav.put(`${root}/full/2-large.bin`, large)).status).toBe(201);
    const res = await dav.move(`${root}/full`, `${other}/full`);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(await res.text()).not.toMatch(/\/tmp\/|storage\//);
    // Each file is whole somewhere: the small one may have moved, the large one never left.
    expect(sha256(await bytesOf(await fs.download(`${root}/full/2-large.bin`)))).toBe(sha256(large));
    const smallAt = (await fs.get(`${root}/full/1-small.bin`)).status === 200 ? `${root}/full/1-small.bin` : `${other}/full/1-small.bin`;
    expect(sha256(await bytesOf(await fs.download(smallAt)))).toBe(sha256(small));
    expect((await fs.get(`${other}/full/2-large.bin`)).status).toBe(404);
  });
});
