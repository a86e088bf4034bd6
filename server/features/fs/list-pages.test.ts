import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fsListingSchema } from '../../../contract/fs';
import { fileClient } from '../../../tests/fixtures/files';
import { fsClient } from '../../../tests/fixtures/fs';
import { expectError, expectOk, useTestApp } from '../../../tests/fixtures/test-app';

/** `list` in pages (`offset`, `limit`): what the explorer asks of a folder of many thousand files. */
describe('the listing in pages', () => {
  const t = useTestApp();
  const page = (query: string) => t.request(`/api/admin/fs/list?path=${encodeURIComponent('/local/big')}&${query}`, { token: t.token });
  const pageOk = async (query: string) => expectOk(await page(query), fsListingSchema);

  beforeAll(async () => {
    const local = await fileClient(t).builtinLocal(t.token);
    const folder = join(t.dataDir, 'storage', local.id, 'big');
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
});
