/**
 * Names at and past the storage's limits, through the fs API and WebDAV on LOCAL and s3rver: every name the storage
 * holds is stored whole (LOCAL's metadata file, whose name is longer, must not make it fail), and one it cannot hold
 * is a 400 `name_too_long` at the door that says the longest name that fits.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, expectError, useTestApp } from '../../../tests/fixtures/test-app';
import { davClient } from '../../../tests/fixtures/dav';
import { bytesOf } from '../../../tests/fixtures/files';
import { fsClient, mountOfKind, type MountOfKind } from '../../../tests/fixtures/fs';
import { S3RVER_LONGEST_NAME_BYTES } from '../../../tests/fixtures/s3rver';
import { FS_NAME_MAX_BYTES } from '../../../contract/fs-paths';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

/** A name of exactly `bytes` bytes of UTF-8 ending in `.txt`. */
const nameOf = (bytes: number, fill = 'n') => `${fill.repeat(bytes - 4)}.txt`;
const BODY = new Uint8Array(Buffer.from('long name, short file\n'));

describe.each<'LOCAL' | 'S3'>(['LOCAL', 'S3'])('long names on %s', (kind) => {
  const t = useTestApp({ login: false });
  let mount: MountOfKind;
  let fs: ReturnType<typeof fsClient>;
  let dav: ReturnType<typeof davClient>;

  beforeAll(async () => {
    const token = await t.login();
    mount = await mountOfKind(t, token, kind, { mount: { cache_ttl: 0 } });
    fs = fsClient(t, { token });
    dav = davClient(t, ADMIN_USERNAME, ADMIN_PASSWORD);
  });
  afterAll(async () => {
    await mount.s3?.stop();
  });

  /** Files left in LOCAL's metadata folder: none once every object is gone. */
  const metadataFiles = () => {
    const walk = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(join(dir, entry.name)) : [entry.name]));
    return walk(join(t.dataDir, 'storage', mount.configId, '.meta'));
  };

  const longest = kind === 'LOCAL' ? FS_NAME_MAX_BYTES : S3RVER_LONGEST_NAME_BYTES;

  it('stores names up to the longest the storage holds through upload and WebDAV, and deletes them cleanly', async () => {
    const folder = `${mount.root}/longest`;
    const names = [nameOf(longest - 4), nameOf(longest), `${'é'.repeat(Math.floor((longest - 4) / 2))}.txt`];
    for (const name of names) {
      const res = await fs.upload(folder, name, BODY);
      expect(res.status, await res.clone().text()).toBe(201);
      expect(await bytesOf(await fs.download(`${folder}/${name}`))).toEqual(Buffer.from(BODY));
      expect((await fs.getOk(`${folder}/${name}`)).size).toBe(BODY.length);
    }
    const viaDav = nameOf(longest - 1, 'd');
    expect((await dav.put(`${folder}/${viaDav}`, BODY)).status).toBe(201);
    expect(await (await dav.get(`${folder}/${viaDav}`)).text()).toBe(Buffer.from(BODY).toString());
    const listed = await fs.listOk(folder, true);
    expect(listed.items.map((item) => item.name).sort()).toEqual([...names, viaDav].sort());
    expect((await fs.batchRemoveOk([...names, viaDav].map((name) => `${folder}/${name}`))).failed).toEqual([]);
    expect(await fs.names(folder, true)).toEqual([]);
    if (kind === 'LOCAL') expect(metadataFiles()).toEqual([]);
  });

  it('refuses a 256-byte name on every write route with 400 name_too_long naming 255 as the longest', async () => {
    const folder = `${mount.root}/over`;
    expect((await fs.mkdir(folder)).status).toBe(201);
    expect((await fs.upload(folder, 'short.txt', BODY)).status).toBe(201);
    const long = nameOf(256);
    const refusals = [
      await fs.upload(folder, long, BODY),
      await fs.mkdir(`${folder}/${long}`),
      await fs.rename(`${folder}/short.txt`, `${folder}/${long}`),
      await fs.post('multipart/init', { path: folder, filename: long, contentType: 'text/plain', fileSize: 10 }),
      await fs.post('presign', { path: folder, fileName: long, contentType: 'text/plain', fileSize: 10 }),
    ];
    for (const res of refusals) {
      const error = await expectError(res, 400);
      expect(error.data).toMatchObject({ issue: 'name_too_long', maxBytes: 255 });
      expect(error.message).toContain('255 bytes');
    }
    const batch = await fs.uploadBatch(folder, [{ relativePath: `sub/${long}`, bytes: BODY }]);
    expect(JSON.stringify(await batch.json())).toMatch(/name_too_long|255 bytes/);
    for (const res of [
      await dav.put(`${folder}/${long}`, BODY),
      await dav.mkcol(`${folder}/${long}`),
      await dav.copy(`${folder}/short.txt`, `${folder}/${long}`),
      await dav.move(`${folder}/short.txt`, `${folder}/${long}`),
    ]) {
      expect(res.status).toBe(400);
    }
    expect(await fs.names(folder, true)).toEqual(['short.txt']);
  });

  it('gives the longest name that still fits in a folder so deep that the whole key nears 1024 bytes', async () => {
    // Five folders of 200 bytes: the key holds 1004 bytes before the name, its slash leaves 19 for the name.
    const deep = [1, 2, 3, 4, 5].map((n) => String(n).repeat(200)).join('/');
    const folder = `${mount.root}/${deep}`;
    const room = 1024 - (Buffer.byteLength(deep) + 1);
    expect((await fs.mkdir(folder)).status).toBe(201);
    const error = await expectError(await fs.upload(folder, nameOf(room + 1), BODY), 400);
    expect(error.data).toMatchObject({ issue: 'name_too_long', maxBytes: room });
    expect(error.message).toContain(`${room} bytes`);
    expect((await dav.put(`${folder}/${nameOf(room + 1)}`, BODY)).status).toBe(400);
    expect((await fs.upload(folder, nameOf(room), BODY)).status).toBe(201);
    expect(await fs.names(folder, true)).toEqual([nameOf(room)]);
  });
});
