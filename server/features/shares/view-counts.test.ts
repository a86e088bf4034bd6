import { describe, expect, it } from 'vitest';
import { expectOk, useTestApp } from '../../../tests/fixtures/test-app';
import { adminPasteListSchema, createdPasteSchema } from '../../../contract/pastes';
import { publicPasteSchema } from '../../../contract/public-paste';
import { ViewCounts, viewCountsOf } from './view-counts';

const t = useTestApp();

const create = async (slug: string, maxViews: number) =>
  expectOk(await t.request('/api/paste', { token: t.token, json: { content: `paste ${slug}`, slug, maxViews } }), createdPasteSchema, 201);
const read = async (slug: string) => expectOk(await t.request(`/api/paste/${slug}`), publicPasteSchema);
const storedViews = async (slug: string) => (await t.db.selectFrom('pastes').select('views').where('slug', '=', slug).executeTakeFirstOrThrow()).views;

describe('view counts', () => {
  it('counts views of an unlimited paste in memory, answers each reader its number, and writes them in one go', async () => {
    await create('popular', 0);
    const answers = await Promise.all(Array.from({ length: 50 }, () => read('popular')));
    expect(answers.map((answer) => answer.views).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, index) => index + 1));
    expect(await storedViews('popular')).toBe(0);
    await viewCountsOf(t.deps).flush();
    expect(await storedViews('popular')).toBe(50);
  });

  it('shows every counted view to management reads at once', async () => {
    await create('listed', 0);
    await read('listed');
    await read('listed');
    const list = await expectOk(await t.request('/api/admin/pastes', { token: t.token }), adminPasteListSchema);
    expect(list.items.find((item) => item.slug === 'listed')?.views).toBe(2);
  });

  it('keeps counting a paste with a view limit exactly, in the database', async () => {
    await create('limited', 3);
    const statuses = await Promise.all(Array.from({ length: 10 }, async () => (await t.request('/api/paste/limited')).status));
    expect(statuses.filter((status) => status === 200)).toHaveLength(3);
    expect(await storedViews('limited')).toBe(3);
  });

  it('writes pending views about once per interval without being asked', async () => {
    await create('timed', 0);
    const counts = new ViewCounts(t.deps, 20);
    const row = await t.db.selectFrom('pastes').select('id').where('slug', '=', 'timed').executeTakeFirstOrThrow();
    counts.add('pastes', row.id);
    counts.add('pastes', row.id);
    expect(await storedViews('timed')).toBe(0);
    await expect.poll(() => storedViews('timed'), { timeout: 2000 }).toBe(2);
  });
});
