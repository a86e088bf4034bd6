/**
 * A file share's bytes are the share's alone: whatever reaches a storage through a mount (the admin's and a key's
 * fs API, WebDAV, copies) cannot list, read, write, move or delete the objects of its file shares, on LOCAL and on
 * s3rver, through a mount at the storage's root and one at a sub-folder. And an install whose shares were stored
 * before the share area existed gets them moved into it, without losing one, however often the move runs or stops.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { storageConfigSchema, type StorageConfig } from '../../../contract/storage';
import { bytesOf, fileClient, patternBytes, sha256 } from '../../../tests/fixtures/files';
import { davClient } from '../../../tests/fixtures/dav';
import { createMount, fsClient } from '../../../tests/fixtures/fs';
import { startS3rver, type RunningS3rver } from '../../../tests/fixtures/s3rver';
import { expectOk, useTestApp } from '../../../tests/fixtures/test-app';
import { moveSharesIntoArea } from './share-area';
import { findStorageConfig } from './configs';
import { isShareAreaKey, SHARE_AREA } from '../../storage/keys';
import { driverFor } from '../../storage/registry';

vi.setConfig({ testTimeout: 60_000 });

const PASSWORD = 'open sesame';
const quiet = { info: () => undefined, warn: () => undefined };

interface Storage {
  config: StorageConfig;
  /** Where the mount of the storage's root is. */
  rootMount: string;
  /** Where a mount of a sub-folder of the same storage is (its config's default folder). */
  subMount: string;
  subConfig: StorageConfig;
}

describe.each(['LOCAL', 'S3'] as const)('file shares on %s are out of every mount’s reach', (kind) => {
  const t = useTestApp();
  let s3: RunningS3rver | undefined;
  let storage: Storage;
  const secret = patternBytes(20_000, 3);

  const share = async (config: StorageConfig) => {
    const f = fileClient(t);
    const made = await f.uploadOk(secret, { token: t.token }, { filename: 'doc.pdf', fields: { s3_config_id: config.id, password: PASSWORD, max_views: '1' } });
    return { slug: made.slug, key: (await f.row(made.slug)).storage_path };
  };

  const config = async (body: Record<string, unknown>) =>
    expectOk(await t.request('/api/s3-configs', { token: t.token, json: body }), storageConfigSchema, 201);

  beforeAll(async () => {
    if (kind === 'LOCAL') {
      const root = await fileClient(t).builtinLocal(t.token);
      const sub = await config({ storage_type: 'LOCAL', name: 'sub disk', default_folder: 'sub' });
      await createMount(t, t.token, { name: 'Sub', storage_config_id: sub.id, mount_path: '/sub' });
      storage = { config: root, rootMount: '/local', subMount: '/sub', subConfig: sub };
    } else {
      s3 = await startS3rver();
      const root = await config(s3.configRequest({ name: 'bucket root' }));
      const sub = await config(s3.configRequest({ name: 'bucket sub', default_folder: 'sub' }));
      await createMount(t, t.token, { name: 'Root', storage_type: 'S3', storage_config_id: root.id, mount_path: '/s3root' });
      await createMount(t, t.token, { name: 'Sub', storage_type: 'S3', storage_config_id: sub.id, mount_path: '/s3sub' });
      storage = { config: root, rootMount: '/s3root', subMount: '/s3sub', subConfig: sub };
    }
    await fsClient(t, { token: t.token }).uploadOk(`${storage.rootMount}/own`, 'own.txt', Buffer.from('mine'));
  });
  afterAll(async () => {
    await s3?.stop();
  });

  /** The share still opens with its password, byte for byte, and no view was used before. */
  const expectIntact = async (slug: string) => {
    const f = fileClient(t);
    expect(await f.views(slug)).toBe(0);
    const verified = await f.verify(slug, PASSWORD);
    expect(verified.status).toBe(200);
    const { downloadUrl } = (await verified.json()).data as { downloadUrl: string };
    expect(sha256(await bytesOf(await f.getUrl(downloadUrl)))).toBe(sha256(secret));
  };

  it('stores new shares in the share area of their storage, whatever the config’s folder', async () => {
    for (const target of [storage.config, storage.subConfig]) {
      const { key } = await share(target);
      expect(key.startsWith(`${SHARE_AREA}/`)).toBe(true);
    }
  });

  it('an admin, a mount key and WebDAV cannot list, read, write, copy, move or delete a share’s object', async () => {
    const { slug, key } = await share(storage.config);
    const sub = await share(storage.subConfig);
    const apiKey = (await t.createKey(t.token, { name: `mounts-${kind}`, mount_permission: true, basic_path: '/' })).key;
    const clients = { admin: fsClient(t, { token: t.token }), key: fsClient(t, { apiKey }) };
    const own = `${storage.rootMount}/own`;
    const targets = [key, sub.key, SHARE_AREA].map((inner) => `${storage.rootMount}/${inner}`);
    const surprises: string[] = [];
    for (const [who, fs] of Object.entries(clients)) {
      for (const mount of [storage.rootMount, storage.subMount]) {
        const names = await fs.names(mount, true);
        if (names.some((name) => name === SHARE_AREA || name.endsWith('doc.pdf'))) surprises.push(`${who} lists ${mount}: ${names.join(', ')}`);
      }
      for (const path of targets) {
        const calls = {
          list: () => fs.list(path),
          get: () => fs.get(path),
          download: () => fs.download(path),
          preview: () => fs.preview(path),
          'file-link': () => fs.fileLink(path),
          mkdir: () => fs.mkdir(`${path}/planted`),
          upload: () => fs.upload(path.replace(/\/[^/]*$/, ''), path.split('/').at(-1) ?? '', Buffer.from('planted')),
          update: () => fs.update(path, 'overwritten'),
          remove: () => fs.remove(path),
          'batch-remove': () => fs.batchRemove([path]),
          'rename from': () => fs.rename(path, `${own}/taken`),
          'rename to': () => fs.rename(`${own}/own.txt`, path),
          'copy from': () => fs.batchCopy([{ sourcePath: path, targetPath: `${own}/` }]),
          'copy to': () => fs.batchCopy([{ sourcePath: `${own}/own.txt`, targetPath: path }]),
          'multipart/init': () => fs.post('multipart/init', { path, filename: 'x.bin', fileSize: 10 }),
          presign: () => fs.post('presign', { path, fileName: 'x.bin', fileSize: 10 }),
        };
        for (const [route, call] of Object.entries(calls)) {
          const res = await call();
          const body = await res.text();
          const leaked = body.includes(secret.subarray(0, 64).toString('latin1'));
          // batch calls answer 200 with the path among the failed ones
          const refused = res.status >= 400 && res.status < 500 ? true : /"failed":\[\{/.test(body) && !/"succeeded":\["/.test(body);
          if (!refused || leaked) surprises.push(`${who} ${route} ${path} → ${res.status} ${body.slice(0, 160)}`);
        }
      }
    }
    const dav = davClient(t, apiKey, apiKey);
    for (const mount of [storage.rootMount, storage.subMount]) {
      const hrefs = (await dav.list(`${mount}/`)).map((entry) => entry.href);
      if (hrefs.some((href) => href.includes(SHARE_AREA) || href.includes('doc.pdf'))) surprises.push(`PROPFIND ${mount}: ${hrefs.join(' ')}`);
    }
    for (const path of targets) {
      const answers = {
        GET: await dav.get(path),
        PROPFIND: await dav.propfind(path, '0'),
        PUT: await dav.put(path, 'overwritten'),
        MKCOL: await dav.mkcol(`${path}/planted`),
        COPY: await dav.copy(path, `${own}/copied`),
        'COPY over': await dav.copy(`${own}/own.txt`, path, { overwrite: 'T' }),
        MOVE: await dav.move(path, `${own}/moved`),
        DELETE: await dav.remove(path),
      };
      for (const [method, res] of Object.entries(answers)) {
        if (res.status < 400 || res.status >= 500) surprises.push(`WebDAV ${method} ${path} → ${res.status}`);
      }
    }
    expect(surprises).toEqual([]);
    await expectIntact(slug);
    await expectIntact(sub.slug);
  });
});

describe.each(['LOCAL', 'S3'] as const)('an install of the previous release on %s gets its shares moved into the share area', (kind) => {
  const t = useTestApp();
  let s3: RunningS3rver | undefined;
  let configs: StorageConfig[];
  const bytes = (seed: number) => patternBytes(3000 + seed * 1000, seed);

  beforeAll(async () => {
    if (kind === 'LOCAL') {
      configs = [await fileClient(t).builtinLocal(t.token)];
    } else {
      s3 = await startS3rver();
      configs = [await expectOk(await t.request('/api/s3-configs', { token: t.token, json: s3.configRequest({ default_folder: 'uploads' }) }), storageConfigSchema, 201)];
      await createMount(t, t.token, { name: 'Root', storage_type: 'S3', storage_config_id: configs[0]?.id, mount_path: '/local-s3' });
    }
  });
  afterAll(async () => {
    await s3?.stop();
  });

  const driverOf = async (configId: string) => driverFor(t.deps, (await findStorageConfig(t.db, configId))!);

  /** Shares made now, then put back where the previous release kept them (`<config folder>/…`). */
  async function legacyShares(count: number) {
    const f = fileClient(t);
    const config = configs[0]!;
    const shares: { slug: string; seed: number; legacyKey: string }[] = [];
    for (let seed = 1; seed <= count; seed++) {
      const made = await f.uploadOk(bytes(seed), { token: t.token }, { filename: `old-${seed}.txt`, fields: { s3_config_id: config.id, password: PASSWORD } });
      const row = await f.row(made.slug);
      const legacyKey = row.storage_path.slice(SHARE_AREA.length + 1);
      await (await driverOf(config.id)).move(row.storage_path, legacyKey);
      await t.db.updateTable('files').set({ storage_path: legacyKey }).where('id', '=', row.id).execute();
      shares.push({ slug: made.slug, seed, legacyKey });
    }
    return shares;
  }

  const expectOpens = async (slug: string, seed: number) => {
    const f = fileClient(t);
    const verified = await f.verify(slug, PASSWORD);
    const { downloadUrl } = (await verified.json()).data as { downloadUrl: string };
    expect(sha256(await bytesOf(await f.getUrl(downloadUrl)))).toBe(sha256(bytes(seed)));
  };

  it('moves every share, keeps each readable byte for byte, leaves nothing behind, and a second run does nothing', async () => {
    const shares = await legacyShares(4);
    const driver = await driverOf(configs[0]!.id);
    // The hole being closed: the previous layout put shares where a mount of the storage lists them.
    expect(await driver.head(shares[0]!.legacyKey)).toBeDefined();

    expect(await moveSharesIntoArea(t.deps, quiet)).toEqual({ moved: 4, failed: 0 });
    for (const share of shares) {
      const row = await fileClient(t).row(share.slug);
      expect(isShareAreaKey(row.storage_path)).toBe(true);
      expect(row.moved_from).toBeNull();
      expect(await driver.head(share.legacyKey)).toBeUndefined();
      await expectOpens(share.slug, share.seed);
    }
    expect(await moveSharesIntoArea(t.deps, quiet)).toEqual({ moved: 0, failed: 0 });
  });

  it('finishes a move that stopped midway (object moved but record not, or record moved but original kept)', async () => {
    const [renamed, copied] = await legacyShares(2);
    const driver = await driverOf(configs[0]!.id);
    const f = fileClient(t);
    // Stopped after the object moved, before the record did.
    await driver.move(renamed!.legacyKey, `${SHARE_AREA}/${renamed!.legacyKey}`);
    // Stopped after the record pointed at the copy, before the original was deleted.
    await driver.copy(copied!.legacyKey, `${SHARE_AREA}/${copied!.legacyKey}`);
    await t.db
      .updateTable('files')
      .set({ storage_path: `${SHARE_AREA}/${copied!.legacyKey}`, moved_from: copied!.legacyKey })
      .where('slug', '=', copied!.slug)
      .execute();

    expect(await moveSharesIntoArea(t.deps, quiet)).toEqual({ moved: 1, failed: 0 });
    for (const share of [renamed!, copied!]) {
      const row = await f.row(share.slug);
      expect(row.storage_path).toBe(`${SHARE_AREA}/${share.legacyKey}`);
      expect(row.moved_from).toBeNull();
      expect(await driver.head(share.legacyKey)).toBeUndefined();
      await expectOpens(share.slug, share.seed);
    }
  });

  it('leaves a share whose object is missing as it was, says so, and carries on with the others', async () => {
    const [lost, kept] = await legacyShares(2);
    const driver = await driverOf(configs[0]!.id);
    await driver.delete(lost!.legacyKey);
    const warnings: string[] = [];
    const result = await moveSharesIntoArea(t.deps, { info: () => undefined, warn: (message) => warnings.push(message) });
    expect(result).toEqual({ moved: 1, failed: 1 });
    expect(warnings.join('\n')).toContain(lost!.slug);
    expect((await fileClient(t).row(lost!.slug)).storage_path).toBe(lost!.legacyKey);
    await expectOpens(kept!.slug, kept!.seed);
  });
});
