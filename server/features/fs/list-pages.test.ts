import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fsListingSchema } from '../../../contract/fs';
import { fileClient } from '../../../tests/fixtures/files';
import { createMount, fsClient } from '../../../tests/fixtures/fs';
import { expectError, expectOk, useTestApp } from '../../../tests/fixtures/test-app';
import { PAGES_HOLD_SECONDS } from './directory-cache';

/** `list` in pages (`offset`, `limit`): what the explorer asks of a folder of many thousand files. */
describe('the listing in pages', () => {
  const t = useTestApp();
  const page = (query: string) => t.request(`/api/admin/fs/list?path=${encodeURIComponent('/local/big')}&${query}`, { token: t.token });
  const pageOk = async (query: string) => expectOk(await page(query), fsListingSchema);
  let folder = '';

  beforeAll(async () => {
    const local = await fileClient(t).builtinLocal(t.token);
    folder = join(t.dataDir, 'storage', local.id, 'big');
    mkdirSync(join(folder, 'sub'), { recursive: true });
    for (let index = 0; index < 25; index++) writeFileSync(join(folder, `file-${index}.txt`), String(index));
  });

  it('answers the pages of the whole listing in its order, with the total and where the next page starts', async () => {
    const whole = await fsClient(t, { token: t.token }).listOk('/local/big');
    expect(whole).not.toHaveProperty('total');
    expect(whole).not.toHaveProperty('nextOffset');
    expect(whole.items).toHaveLength(26);

    const paths: string[] = [];
    let offset: number | null | undefined = 0;
    const offsets: number[] = [];
    while (offset !== null && offset !== undefined) {
      offsets.push(offset);
      const answer = await pageOk(`offset=${offset}&limit=10`);
      expect(answer).toMatchObject({ path: '/local/big/', total: 26, isVirtual: false, mountId: whole.mountId });
      paths.push(...answer.items.map((item) => item.path));
      offset = answer.nextOffset;
    }
    expect(offsets).toEqual([0, 10, 20]);
    expect(paths).toEqual(whole.items.map((item) => item.path));
    // Folders first, then files in natural order, across the pages.
    expect(paths.slice(0, 3)).toEqual(['/local/big/sub/', '/local/big/file-0.txt', '/local/big/file-1.txt']);
  });

  it('answers an empty last page past the end, and refuses a bad offset or limit with a 400', async () => {
    expect(await pageOk('offset=100&limit=10')).toMatchObject({ items: [], total: 26, nextOffset: null });
    expect(await pageOk('limit=26')).toMatchObject({ total: 26, nextOffset: null });
    for (const query of ['limit=0', 'limit=-1', 'limit=ten', 'limit=10001', 'offset=-5&limit=5', 'offset=1.5&limit=5']) {
      const error = await expectError(await page(query), 400);
      expect(error.message).not.toMatch(/\/work|storage\//);
    }
  });

  it('reads a folder once for its pages, even on a mount that caches nothing; a first page reads it again', async () => {
    const local = await fileClient(t).builtinLocal(t.token);
    await createMount(t, t.token, { name: 'Uncached', storage_config_id: local.id, mount_path: '/uncached', cache_ttl: 0 });
    const uncached = async (query: string) =>
      expectOk(await t.request(`/api/admin/fs/list?path=${encodeURIComponent('/uncached/big')}&${query}`, { token: t.token }), fsListingSchema);
    try {
      expect(await uncached('offset=0&limit=10')).toMatchObject({ total: 26, nextOffset: 10 });
      writeFileSync(join(folder, 'file-new.txt'), 'new');
      // The next pages continue the listing the first page was read from: no read of the folder each.
      expect(await uncached('offset=10&limit=10')).toMatchObject({ total: 26, nextOffset: 20 });
      // A whole listing and a new first page read the folder again: nothing cached hides the change.
      expect((await uncached('')).items).toHaveLength(27);
      expect(await uncached('offset=0&limit=10')).toMatchObject({ total: 27 });
      // A listing whose pages stopped coming is read again.
      rmSync(join(folder, 'file-new.txt'));
      t.clock.advance(PAGES_HOLD_SECONDS * 1000 + 1);
      expect(await uncached('offset=20&limit=10')).toMatchObject({ total: 26, nextOffset: null });
    } finally {
      rmSync(join(folder, 'file-new.txt'), { force: true });
    }
  });
});
