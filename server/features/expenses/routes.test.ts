/**
 * Expense claims over HTTP: who may file and see what, every lifecycle step the table allows and every one it
 * refuses (409 with the current status), the validation 400s, and the list's totals per currency. Every claim filed
 * and every step taken checks the stored status against the fold of the stored events.
 */
import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiKeyListSchema, apiKeySchema } from '../../../contract/api-keys';
import { apiKeyTestResponseSchema } from '../../../contract/auth';
import {
  DEFAULT_EXPENSE_CATEGORIES,
  expenseCategoriesSchema,
  expenseClaimDetailSchema,
  expenseListSchema,
  foldExpenseEvents,
  type CreateExpenseRequest,
  type ExpenseClaimDetail,
  type ExpenseStatus,
} from '../../../contract/expenses';
import { dashboardStatsSchema } from '../../../contract/files';
import { systemSettingsSchema } from '../../../contract/system';
import { expectStoredFold, storedExpenseStatus } from '../../../tests/fixtures/expense-status';
import { createTestApp, expectError, expectOk, useTestApp } from '../../../tests/fixtures/test-app';

/** The test clock starts on 2030-01-15 at noon UTC: the 16th has begun somewhere on Earth, the 17th nowhere. */
const CLAIM: CreateExpenseRequest = {
  title: 'Taxi to the airport',
  amount_minor: 1250,
  currency: 'EUR',
  spent_on: '2030-01-10',
  category: 'travel',
  description: 'Night flight',
};

type Who = { token: string } | { apiKey: string };

describe('/api/expenses', () => {
  const t = useTestApp();
  let alice: string;
  let bob: string;
  let noExpense: string;
  const admin = (): Who => ({ token: t.token });

  const setStoredStatus = (id: string, status: ExpenseStatus) => t.db.updateTable('expense_claims').set({ status }).where('id', '=', id).execute();

  const create = async (who: Who, body: Partial<CreateExpenseRequest> = {}) =>
    expectStoredFold(t.db, await expectOk(await t.request('/api/expenses', { ...who, json: { ...CLAIM, ...body } }), expenseClaimDetailSchema, 201));
  const get = (who: Who, id: string) => t.request(`/api/expenses/${id}`, who);
  const fire = (who: Who, id: string, event: string, json: unknown = {}) =>
    t.request(event === 'submit' ? `/api/expenses/${id}/submit` : `/api/admin/expenses/${id}/${event}`, { ...who, method: 'POST', json });
  const fireOk = async (who: Who, id: string, event: string, json: unknown = {}) =>
    expectStoredFold(t.db, await expectOk(await fire(who, id, event, json), expenseClaimDetailSchema));
  const conflictStatus = async (res: Response) => (await expectError(res, 409)).data.status;

  beforeAll(async () => {
    alice = (await t.createKey(t.token, { name: 'alice', expense_permission: true })).key;
    bob = (await t.createKey(t.token, { name: 'bob', expense_permission: true })).key;
    noExpense = (await t.createKey(t.token, { name: 'files only', text_permission: true, file_permission: true, mount_permission: true })).key;
  });

  describe('the key permission', () => {
    it('is off by default, shown in key lists and the key test, and can be switched', async () => {
      const keys = await expectOk(await t.request('/api/admin/api-keys', { token: t.token }), apiKeyListSchema);
      expect(Object.fromEntries(keys.map((key) => [key.name, key.expense_permission]))).toMatchObject({ alice: true, 'files only': false });
      const plain = await t.createKey(t.token, { name: 'plain' });
      expect(plain.expense_permission).toBe(false);
      await expectError(await t.request('/api/expenses', { apiKey: plain.key }), 403);
      await expectOk(await t.request(`/api/admin/api-keys/${plain.id}`, { token: t.token, method: 'PUT', json: { expense_permission: true } }), apiKeySchema);
      expect((await expectOk(await t.request('/api/test/api-key', { apiKey: plain.key }), apiKeyTestResponseSchema)).permissions.expense).toBe(true);
      await expectOk(await t.request('/api/expenses', { apiKey: plain.key }), expenseListSchema);
    });

    it('without it a key gets 403 on every claim route, anonymous callers 401', async () => {
      const mine = await create({ apiKey: alice });
      const routes: [string, string, unknown?][] = [
        ['GET', '/api/expenses'],
        ['POST', '/api/expenses', CLAIM],
        ['GET', '/api/expenses/categories'],
        ['GET', `/api/expenses/${mine.id}`],
        ['PATCH', `/api/expenses/${mine.id}`, { title: 'x' }],
        ['DELETE', `/api/expenses/${mine.id}`],
        ['POST', `/api/expenses/${mine.id}/submit`, {}],
        ['GET', `/api/expenses/${mine.id}/receipts/none`],
        ['DELETE', `/api/expenses/${mine.id}/receipts/none`],
      ];
      for (const [method, path, json] of routes) {
        const refused = await expectError(await t.request(path, { method, apiKey: noExpense, json }), 403);
        expect(refused.data).toMatchObject({ error: 'forbidden' });
        await expectError(await t.request(path, { method, json }), 401);
      }
      for (const event of ['process', 'approve', 'reject']) {
        await expectError(await fire({ apiKey: alice }, mine.id, event, { note: 'self-service' }), 403);
      }
      await expectError(await t.request('/api/admin/expenses/export.csv', { apiKey: alice }), 403);
    });
  });

  describe('filing', () => {
    it('creates a draft with no events, owned by the caller', async () => {
      const claim = await create({ apiKey: alice });
      expect(claim).toMatchObject({ ...CLAIM, status: 'draft', owner_name: 'alice', receipt_count: 0, receipts: [], events: [] });
      expect(claim.created_by).toMatch(/^apikey:/);
      expect(await expectOk(await get({ apiKey: alice }, claim.id), expenseClaimDetailSchema)).toEqual(claim);
      const own = await create(admin(), { currency: 'JPY', amount_minor: 5000 });
      expect(own).toMatchObject({ created_by: 'admin', owner_name: 'admin', currency: 'JPY' });
    });

    it('accepts today anywhere on Earth (UTC+14), trims text, and defaults the description', async () => {
      const { description: _omitted, ...withoutDescription } = CLAIM;
      const claim = await expectOk(
        await t.request('/api/expenses', { apiKey: alice, json: { ...withoutDescription, title: '  Lunch ', spent_on: '2030-01-16' } }),
        expenseClaimDetailSchema,
        201,
      );
      expect(claim).toMatchObject({ title: 'Lunch', spent_on: '2030-01-16', description: '' });
    });

    it.each([
      ['a zero amount', { amount_minor: 0 }, 'amount_minor', 'must_be_positive'],
      ['a negative amount', { amount_minor: -100 }, 'amount_minor', 'must_be_positive'],
      ['a fractional amount', { amount_minor: 12.5 }, 'amount_minor', 'must_be_integer'],
      ['an absurd amount', { amount_minor: 1_000_000_000_001 }, 'amount_minor', 'too_large'],
      ['an amount as text', { amount_minor: '1250' }, 'amount_minor', undefined],
      ['an unknown currency', { currency: 'ABC' }, 'currency', 'unknown_currency'],
      ['a lower-case currency', { currency: 'eur' }, 'currency', 'unknown_currency'],
      ['a future date', { spent_on: '2030-01-17' }, 'spent_on', 'future_date'],
      ['an impossible date', { spent_on: '2030-02-30' }, 'spent_on', 'invalid_date'],
      ['a date with a time', { spent_on: '2030-01-10T10:00:00Z' }, 'spent_on', 'invalid_date'],
      ['an unknown category', { category: 'yachts' }, 'category', 'unknown_category'],
      ['a blank title', { title: '   ' }, 'title', 'required'],
    ])('answers 400 for %s and stores nothing', async (_name, change, field, issue) => {
      const before = await t.db.selectFrom('expense_claims').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const body = await expectError(await t.request('/api/expenses', { apiKey: alice, json: { ...CLAIM, ...change } }), 400);
      expect(body.data).toMatchObject({ error: 'validation', field });
      if (issue) expect(body.data.issue).toBe(issue);
      const after = await t.db.selectFrom('expense_claims').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
    });

    it('lists the categories of the system settings, and follows the admin’s edits', async () => {
      const read = async () => (await expectOk(await t.request('/api/expenses/categories', { apiKey: alice }), expenseCategoriesSchema)).categories;
      expect(await read()).toEqual([...DEFAULT_EXPENSE_CATEGORIES]);
      const edited = [...DEFAULT_EXPENSE_CATEGORIES, 'training'];
      await expectOk(await t.request('/api/admin/system-settings', { token: t.token, method: 'PUT', json: { expense_categories: edited } }), systemSettingsSchema);
      expect(await read()).toEqual(edited);
      expect((await create({ apiKey: alice }, { category: 'training' })).category).toBe('training');
    });
  });

  describe('who sees what', () => {
    it('hides another key’s claim (404) and shows the admin every claim', async () => {
      const claim = await create({ apiKey: alice });
      const bobs = { apiKey: bob };
      await expectError(await get(bobs, claim.id), 404);
      await expectError(await t.request(`/api/expenses/${claim.id}`, { ...bobs, method: 'PATCH', json: { title: 'mine now' } }), 404);
      await expectError(await t.request(`/api/expenses/${claim.id}`, { ...bobs, method: 'DELETE' }), 404);
      await expectError(await fire(bobs, claim.id, 'submit'), 404);
      await expectError(await get({ apiKey: alice }, 'no-such-claim'), 404);
      expect((await expectOk(await get(admin(), claim.id), expenseClaimDetailSchema)).id).toBe(claim.id);
    });

    it('lets only the owner change, submit or delete a claim, the admin included', async () => {
      const claim = await create({ apiKey: alice });
      const refused = await expectError(await t.request(`/api/expenses/${claim.id}`, { token: t.token, method: 'PATCH', json: { title: 'edited' } }), 403);
      expect(refused.data.error).toBe('forbidden');
      await expectError(await fire(admin(), claim.id, 'submit'), 403);
      await expectError(await t.request(`/api/expenses/${claim.id}`, { token: t.token, method: 'DELETE' }), 403);
      expect((await expectOk(await get({ apiKey: alice }, claim.id), expenseClaimDetailSchema)).status).toBe('draft');
    });

    it('lists a key’s own claims newest first and every claim to the admin awaiting review first, with totals per currency over the filter', async () => {
      const fresh = await createTestApp();
      try {
        const admin2 = await fresh.login();
        const carol = (await fresh.createKey(admin2, { name: 'carol', expense_permission: true })).key;
        const dave = (await fresh.createKey(admin2, { name: 'dave', expense_permission: true })).key;
        const file = async (key: string, amount: number, currency: string) =>
          expectOk(await fresh.request('/api/expenses', { apiKey: key, json: { ...CLAIM, amount_minor: amount, currency } }), expenseClaimDetailSchema, 201);
        const c1 = await file(carol, 1000, 'EUR');
        fresh.clock.advance(1000);
        const c2 = await file(carol, 250, 'EUR');
        fresh.clock.advance(1000);
        const c3 = await file(carol, 700, 'JPY');
        await file(dave, 99, 'USD');
        await expectStoredFold(fresh.db, await expectOk(await fresh.request(`/api/expenses/${c2.id}/submit`, { apiKey: carol, method: 'POST' }), expenseClaimDetailSchema));

        const list = (who: Who, query = '') => fresh.request(`/api/expenses${query}`, who).then((res) => expectOk(res, expenseListSchema));
        const carols = await list({ apiKey: carol }, '?limit=2');
        expect(carols.items.map((item) => item.id)).toEqual([c3.id, c2.id]);
        expect(carols.pagination).toEqual({ total: 3, limit: 2, offset: 0, hasMore: true });
        expect(carols.totals).toEqual([
          { currency: 'EUR', amount_minor: 1250, count: 2 },
          { currency: 'JPY', amount_minor: 700, count: 1 },
        ]);
        expect((await list({ apiKey: carol }, '?limit=2&offset=2')).items.map((item) => item.id)).toEqual([c1.id]);
        const drafts = await list({ apiKey: carol }, '?status=draft');
        expect(drafts.items.map((item) => item.id)).toEqual([c3.id, c1.id]);
        expect(drafts.totals).toEqual([
          { currency: 'EUR', amount_minor: 1000, count: 1 },
          { currency: 'JPY', amount_minor: 700, count: 1 },
        ]);
        const all = await list({ token: admin2 });
        expect(all.pagination.total).toBe(4);
        // The admin's list is the review queue: the submitted claim first, then the rest newest first.
        expect(all.items.map((item) => item.id).slice(0, 3)).toEqual([c2.id, expect.any(String), expect.any(String)]);
        expect(all.items.map((item) => item.id).slice(1)).toContain(c3.id);
        expect(all.items.at(-1)?.id).toBe(c1.id);
        expect(all.totals.map((total) => total.currency)).toEqual(['EUR', 'JPY', 'USD']);
        await expectError(await fresh.request('/api/expenses?status=lost', { apiKey: carol }), 400);
        await expectError(await fresh.request('/api/expenses?limit=0', { apiKey: carol }), 400);
      } finally {
        await fresh.close();
      }
    });
  });

  describe('the lifecycle', () => {
    const expectFold = (claim: ExpenseClaimDetail) => expect(foldExpenseEvents(claim.events)).toBe(claim.status);

    it('goes draft → submitted → processing → rejected → (edited) submitted → processing → approved, each step an event', async () => {
      const owner = { apiKey: alice };
      const claim = await create(owner);
      let now = await fireOk(owner, claim.id, 'submit');
      expect(now.status).toBe('submitted');
      now = await fireOk(admin(), claim.id, 'process', { note: 'looking' });
      expect(now.status).toBe('processing');
      const rejectedNoNote = await expectError(await fire(admin(), claim.id, 'reject', {}), 400);
      expect(rejectedNoNote.data.field).toBe('note');
      await expectError(await fire(admin(), claim.id, 'reject', { note: '   ' }), 400);
      now = await fireOk(admin(), claim.id, 'reject', { note: 'Receipt missing' });
      expect(now.status).toBe('rejected');
      now = await expectOk(
        await t.request(`/api/expenses/${claim.id}`, { ...owner, method: 'PATCH', json: { amount_minor: 1300, description: 'with tip' } }),
        expenseClaimDetailSchema,
      );
      expect(now).toMatchObject({ status: 'rejected', amount_minor: 1300, description: 'with tip' });
      await fireOk(owner, claim.id, 'submit');
      await fireOk(admin(), claim.id, 'process');
      now = await fireOk(admin(), claim.id, 'approve', { note: 'OK' });
      expect(now.status).toBe('approved');
      expectFold(now);
      expect(now.events.map((e) => [e.event, e.from_status, e.to_status, e.actor_name, e.note])).toEqual([
        ['submit', 'draft', 'submitted', 'alice', null],
        ['process', 'submitted', 'processing', 'admin', 'looking'],
        ['reject', 'processing', 'rejected', 'admin', 'Receipt missing'],
        ['submit', 'rejected', 'submitted', 'alice', null],
        ['process', 'submitted', 'processing', 'admin', null],
        ['approve', 'processing', 'approved', 'admin', 'OK'],
      ]);
      expect(now.events.every((e) => e.created_at === t.clock.now().toISOString())).toBe(true);
      expect(await expectOk(await get(owner, claim.id), expenseClaimDetailSchema)).toEqual(now);
    });

    it.each([
      ['approve', undefined, 'approved'],
      ['reject', 'Over budget', 'rejected'],
    ] as const)('lets the admin %s a submitted claim at once, the review step recorded before the decision', async (event, note, status) => {
      const owner = { apiKey: alice };
      const claim = await create(owner);
      await fireOk(owner, claim.id, 'submit');
      if (event === 'reject') await expectError(await fire(admin(), claim.id, 'reject', {}), 400);
      const now = await fireOk(admin(), claim.id, event, note ? { note } : {});
      expect(now.status).toBe(status);
      expectFold(now);
      expect(now.events.map((e) => [e.event, e.from_status, e.to_status, e.actor_name, e.note])).toEqual([
        ['submit', 'draft', 'submitted', 'alice', null],
        ['process', 'submitted', 'processing', 'admin', null],
        [event, 'processing', status, 'admin', note ?? null],
      ]);
      await expectStoredFold(t.db, now);
    });

    it('refuses every other step with 409 and the current status, changing nothing', async () => {
      const owner = { apiKey: alice };
      const claim = await create(owner);
      const edit = (id: string) => t.request(`/api/expenses/${id}`, { ...owner, method: 'PATCH', json: { title: 'late edit' } });
      const remove = (id: string) => t.request(`/api/expenses/${id}`, { ...owner, method: 'DELETE' });
      const note = { note: 'n' };

      for (const event of ['process', 'approve', 'reject']) expect(await conflictStatus(await fire(admin(), claim.id, event, note))).toBe('draft');
      await fireOk(owner, claim.id, 'submit');
      expect(await conflictStatus(await fire(owner, claim.id, 'submit'))).toBe('submitted');
      expect(await conflictStatus(await edit(claim.id))).toBe('submitted');
      expect(await conflictStatus(await remove(claim.id))).toBe('submitted');
      await fireOk(admin(), claim.id, 'process');
      expect(await conflictStatus(await fire(owner, claim.id, 'submit'))).toBe('processing');
      expect(await conflictStatus(await fire(admin(), claim.id, 'process'))).toBe('processing');
      expect(await conflictStatus(await edit(claim.id))).toBe('processing');
      await fireOk(admin(), claim.id, 'reject', note);
      expect(await conflictStatus(await remove(claim.id))).toBe('rejected');
      for (const event of ['process', 'approve', 'reject']) expect(await conflictStatus(await fire(admin(), claim.id, event, note))).toBe('rejected');
      await fireOk(owner, claim.id, 'submit');
      await fireOk(admin(), claim.id, 'process');
      const approved = await fireOk(admin(), claim.id, 'approve');
      expect(await conflictStatus(await fire(owner, claim.id, 'submit'))).toBe('approved');
      for (const event of ['process', 'approve', 'reject']) expect(await conflictStatus(await fire(admin(), claim.id, event, note))).toBe('approved');
      expect(await conflictStatus(await edit(claim.id))).toBe('approved');
      expect(await conflictStatus(await remove(claim.id))).toBe('approved');
      expect(await expectOk(await get(owner, claim.id), expenseClaimDetailSchema)).toEqual(approved);
      const stored = await t.db.selectFrom('expense_events').select('id').where('claim_id', '=', claim.id).execute();
      expect(stored).toHaveLength(approved.events.length);
      await expectStoredFold(t.db, approved);
    });

    // The stored status is a cache: the claim's page and every decision (steps, edits, receipts, deletion) read
    // the fold of the events; lists, their filter and totals, the review count and the export read the cache.
    it('answers the fold of the events when the stored status has gone wrong, and the next step mends it', async () => {
      const owner = { apiKey: alice };
      const submitted = await create(owner);
      await fireOk(owner, submitted.id, 'submit');
      await setStoredStatus(submitted.id, 'draft');
      const seen = await expectOk(await get(owner, submitted.id), expenseClaimDetailSchema);
      expect(seen.status).toBe('submitted');
      expect(await storedExpenseStatus(t.db, submitted.id)).toEqual({ stored: 'draft', folded: 'submitted' });
      const edit = t.request(`/api/expenses/${submitted.id}`, { ...owner, method: 'PATCH', json: { title: 'late edit' } });
      expect(await conflictStatus(await edit)).toBe('submitted');
      expect(await conflictStatus(await t.request(`/api/expenses/${submitted.id}`, { ...owner, method: 'DELETE' }))).toBe('submitted');
      expect(await conflictStatus(await fire(owner, submitted.id, 'submit'))).toBe('submitted');
      // Lists read the cache: the claim still shows among the drafts until a step writes the fold again.
      const drafts = await expectOk(await t.request('/api/expenses?status=draft', owner), expenseListSchema);
      expect(drafts.items.find((item) => item.id === submitted.id)?.status).toBe('draft');
      expect((await fireOk(admin(), submitted.id, 'process')).status).toBe('processing');

      const draft = await create(owner);
      await setStoredStatus(draft.id, 'approved');
      expect((await expectOk(await get(owner, draft.id), expenseClaimDetailSchema)).status).toBe('draft');
      await expectOk(await t.request(`/api/expenses/${draft.id}`, { ...owner, method: 'PATCH', json: { title: 'still mine' } }), expenseClaimDetailSchema);
      expect((await fireOk(owner, draft.id, 'submit')).status).toBe('submitted');
    });

    it('answers 404 for the admin’s steps on a claim that does not exist', async () => {
      await expectError(await fire(admin(), 'missing', 'process'), 404);
    });

    it('validates edits like creations, and deletes drafts', async () => {
      const owner = { apiKey: alice };
      const claim = await create(owner);
      const patch = (json: unknown) => t.request(`/api/expenses/${claim.id}`, { ...owner, method: 'PATCH', json });
      expect((await expectError(await patch({ currency: 'XYZ' }), 400)).data.field).toBe('currency');
      expect((await expectError(await patch({ spent_on: '2031-01-01' }), 400)).data.issue).toBe('future_date');
      expect((await expectError(await patch({ amount_minor: 0 }), 400)).data.field).toBe('amount_minor');
      expect((await expectError(await patch({ category: 'yachts' }), 400)).data.field).toBe('category');
      expect(await expectOk(await patch({}), expenseClaimDetailSchema)).toMatchObject({ title: CLAIM.title, amount_minor: CLAIM.amount_minor });
      await expectOk(await t.request(`/api/expenses/${claim.id}`, { ...owner, method: 'DELETE' }), v.null());
      await expectError(await get(owner, claim.id), 404);
    });
  });

  it('counts claims awaiting review (submitted and processing) on the admin dashboard', async () => {
    const before = (await expectOk(await t.request('/api/admin/dashboard/stats', { token: t.token }), dashboardStatsSchema)).expensesAwaitingReview;
    const owner = { apiKey: bob };
    const a = await create(owner);
    const b = await create(owner);
    await create(owner);
    await fireOk(owner, a.id, 'submit');
    await fireOk(owner, b.id, 'submit');
    await fireOk(admin(), b.id, 'process');
    const stats = async () => (await expectOk(await t.request('/api/admin/dashboard/stats', { token: t.token }), dashboardStatsSchema)).expensesAwaitingReview;
    expect(await stats()).toBe(before + 2);
    await fireOk(admin(), b.id, 'approve');
    expect(await stats()).toBe(before + 1);
  });
});
