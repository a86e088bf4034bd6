import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { storageConfigSchema } from '../../../contract/storage';
import { fileClient, patternBytes } from '../../../tests/fixtures/files';
import { createMount, fsClient } from '../../../tests/fixtures/fs';
import { expectError, expectOk, HOUR, useTestApp } from '../../../tests/fixtures/test-app';
import { signLocalGroupUrl } from '../../storage/local-urls';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const MIB = 1024 * 1024;

/** A copy out of LOCAL storage reads its small files in groups: one signed GET answers several files' bytes. */
describe('read groups of a copy from LOCAL storage', () => {
  const t = useTestApp();
  let fs: ReturnType<typeof fsClient>;
  let configId: string;
  /** f00…f09, of different sizes, and one file over a part's size (copied in parts, read alone). */
  const files = Array.from({ length: 10 }, (_, index) => ({ name: `f${String(index).padStart(2, '0')}.bin`, bytes: Buffer.from(patternBytes(1000 + index * 7919, index)) }));

  beforeAll(async () => {
    fs = fsClient(t, { token: t.token });
    configId = (await fileClient(t).builtinLocal(t.token)).id;
    const second = await expectOk(await t.request('/api/s3-configs', { token: t.token, json: { storage_type: 'LOCAL', name: 'second disk' } }), storageConfigSchema, 201);
    await createMount(t, t.token, { name: 'Second', storage_config_id: second.id, mount_path: '/second', sort_order: 5 });
    for (const { name, bytes } of files) await fs.uploadOk('/local/groups', name, bytes);
    await fs.uploadOk('/local/groups', 'large.bin', Buffer.from(patternBytes(5 * MIB + 1, 3)));
  });

  const plan = () => fs.batchCopyOk([{ sourcePath: '/local/groups', targetPath: '/second/copied' }]);
  const get = async (url: string) => fetch(await t.overHttp(url));

  it('plans groups of at most 8 small files in the copies’ order and answers their bytes one after another', async () => {
    const planned = await plan();
    const small = planned.clientCopies.filter((copy) => copy.upload.kind === 'put').map((copy) => copy.sourcePath);
    expect(planned.readGroups.map((group) => group.sourcePaths)).toEqual([small.slice(0, 8), small.slice(8)]);
    expect(planned.readGroups.flatMap((group) => group.sourcePaths)).not.toContain('/local/groups/large.bin');
    for (const group of planned.readGroups) {
      const expected = Buffer.concat(group.sourcePaths.map((path) => files.find(({ name }) => path.endsWith(`/${name}`))!.bytes));
      expect(group.size).toBe(expected.length);
      const answer = await get(group.url);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-length')).toBe(String(expected.length));
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
      expect(Buffer.from(await answer.arrayBuffer()).equals(expected)).toBe(true);
    }
  });

  it('reads files put into the storage by hand without hashing them first (a size check is all a group needs)', async () => {
    const root = join(t.dataDir, 'storage', configId);
    const placed = [Buffer.from(patternBytes(3000, 7)), Buffer.from(patternBytes(4000, 8))];
    mkdirSync(join(root, 'by-hand'), { recursive: true });
    placed.forEach((bytes, index) => writeFileSync(join(root, 'by-hand', `h${index}.bin`), bytes));
    const [group] = (await fs.batchCopyOk([{ sourcePath: '/local/by-hand', targetPath: '/second/by-hand' }])).readGroups;
    const answer = await get(group!.url);
    expect(Buffer.from(await answer.arrayBuffer()).equals(Buffer.concat(placed))).toBe(true);
    // Hashing would have written each file's metadata (its ETag) beside the storage's files.
    expect(existsSync(join(root, '.meta', 'by-hand', 'h0.bin.json'))).toBe(false);
  });

  it('refuses a group URL whose keys, sizes or signature were changed (403), and one past its expiry', async () => {
    const [group] = (await plan()).readGroups;
    const url = new URL(group!.url);
    const tampered = (change: (query: URLSearchParams) => void) => {
      const copy = new URL(url);
      change(copy.searchParams);
      return copy.toString();
    };
    const keys = url.searchParams.getAll('key');
    for (const changed of [
      tampered((query) => query.set('sig', `${query.get('sig')!.slice(0, -2)}AA`)),
      tampered((query) => query.delete('key', keys.at(-1))),
      tampered((query) => query.set('key', keys[1]!)),
      tampered((query) => query.set('expires', String(Number(query.get('expires')) + 60))),
    ]) {
      await expectError(await get(changed), 403);
    }
    t.clock.advance(25 * HOUR);
    const expired = await expectError(await get(group!.url), 403);
    expect(expired.message).toBe('This URL has expired');
  });

  it('refuses a signed group with a key outside the storage, and a file whose size changed since signing', async () => {
    const expires = Math.floor(t.clock.now().getTime() / 1000) + 60;
    const sign = (keyFiles: { key: string; size: number }[]) => signLocalGroupUrl(t.deps.secrets, 'http://localhost', { method: 'GET-GROUP', configId, expires, files: keyFiles });
    const inside = { key: 'groups/f00.bin', size: files[0]!.bytes.length };
    await expectError(await get(sign([inside, { key: '../outside.bin', size: 10 }])), 403);
    await expectError(await get(sign([inside, { key: 'groups/f01.bin', size: 5 }])), 404);
    expect((await get(sign([inside, { key: 'groups/f01.bin', size: files[1]!.bytes.length }]))).status).toBe(200);
  });
});
