import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { RequestFailure } from '../contract/envelope';
import {
  EXPENSE_STATUSES,
  expenseStatusAfter,
  type ExpenseClaimDetail,
  type ExpenseEvent,
  type ExpenseReceipt,
  type ExpenseStatus,
  type UpdateExpenseRequest,
} from '../contract/expenses';
import { allowedActions, expenseClaimMachine, type ClaimAction, type ClaimEvent, type ClaimViewer, type FireInput } from './expense-claim.machine';

const KEY_OWNER = 'apikey:k1';

const claimIn = (status: ExpenseStatus, createdBy = KEY_OWNER): ExpenseClaimDetail => ({
  id: 'c1',
  title: 'Taxi to the airport',
  amount_minor: 4250,
  currency: 'EUR',
  spent_on: '2026-11-20',
  category: 'travel',
  description: '',
  status,
  created_by: createdBy,
  owner_name: createdBy === 'admin' ? 'admin' : 'travel-key',
  receipt_count: 0,
  created_at: '2026-11-20T09:00:00Z',
  updated_at: '2026-11-20T09:00:00Z',
  receipts: [],
  events: [],
});

const refusal = (status: number, message: string): RequestFailure => ({ reason: status === 409 ? 'conflict' : 'http', status, message });

/**
 * A fake server holding one claim: it fires events as the contract's table allows (else a 409), saves edits, deletes
 * the claim and its receipts, and records every call. `failNext` makes the next call fail with that refusal.
 */
function fakeServer(initial: ExpenseClaimDetail) {
  let claim = initial;
  const calls: { fired: FireInput[]; updated: UpdateExpenseRequest[]; deleted: number; receiptsDeleted: string[]; loads: number } = {
    fired: [],
    updated: [],
    deleted: 0,
    receiptsDeleted: [],
    loads: 0,
  };
  const announced: string[] = [];
  const failures: RequestFailure[] = [];
  const failIfAsked = () => {
    const failure = failures.shift();
    if (failure) throw failure;
  };
  const machine = expenseClaimMachine.provide({
    actors: {
      loadClaim: fromPromise(async () => {
        calls.loads++;
        failIfAsked();
        return claim;
      }),
      fireEvent: fromPromise(async ({ input }: { input: FireInput }) => {
        calls.fired.push(input);
        failIfAsked();
        const to = expenseStatusAfter(claim.status, input.event);
        if (!to) throw refusal(409, 'The claim is no longer in that status');
        const record = {
          id: `e${claim.events.length + 1}`,
          event: input.event,
          from_status: claim.status,
          to_status: to,
          actor: input.event === 'submit' ? claim.created_by : 'admin',
          actor_name: 'someone',
          note: input.note ?? null,
          created_at: '2026-11-21T10:00:00Z',
        };
        claim = { ...claim, status: to, events: [...claim.events, record] };
        return claim;
      }),
      updateClaim: fromPromise(async ({ input }: { input: { claimId: string; changes: UpdateExpenseRequest } }) => {
        calls.updated.push(input.changes);
        failIfAsked();
        claim = { ...claim, ...input.changes };
        return claim;
      }),
      deleteClaim: fromPromise(async () => {
        calls.deleted++;
        failIfAsked();
      }),
      deleteReceipt: fromPromise(async ({ input }: { input: { claimId: string; receiptId: string } }) => {
        calls.receiptsDeleted.push(input.receiptId);
        failIfAsked();
        claim = { ...claim, receipts: claim.receipts.filter((receipt) => receipt.id !== input.receiptId) };
      }),
    },
    actions: { announce: (_, { action }) => void announced.push(action) },
  });
  return {
    machine,
    calls,
    announced,
    failNext: (failure: RequestFailure) => failures.push(failure),
    setClaim: (next: ExpenseClaimDetail) => (claim = next),
    current: () => claim,
  };
}

async function openClaim(claim: ExpenseClaimDetail, viewer: ClaimViewer) {
  const server = fakeServer(claim);
  const actor = createActor(server.machine, { input: { claimId: claim.id, viewer } }).start();
  await settled(actor);
  return { actor, ...server };
}

type ClaimActor = Awaited<ReturnType<typeof openClaim>>['actor'];
const settled = (actor: ClaimActor) => waitFor(actor, (state) => !state.hasTag('busy'));

const pageEvent: Record<ClaimAction, ClaimEvent> = {
  edit: { type: 'claim.edit' },
  delete: { type: 'claim.delete' },
  submit: { type: 'claim.submit' },
  process: { type: 'claim.process' },
  approve: { type: 'claim.approve' },
  reject: { type: 'claim.reject', note: 'The receipt is missing' },
};

// The rules, written out by hand rather than read from the contract's table, so that the two are checked
// against each other: the owner edits drafts and rejected claims, deletes drafts, submits both; the admin
// takes up what was submitted, and approves or rejects it, with or without starting the review first.
const OWNER_MAY: Record<ExpenseStatus, ClaimAction[]> = {
  draft: ['edit', 'delete', 'submit'],
  submitted: [],
  processing: [],
  approved: [],
  rejected: ['edit', 'submit'],
};
const ADMIN_MAY: Record<ExpenseStatus, ClaimAction[]> = {
  draft: [],
  submitted: ['process', 'approve', 'reject'],
  processing: ['approve', 'reject'],
  approved: [],
  rejected: [],
};

const viewers: { name: string; viewer: ClaimViewer; createdBy: string; may: (status: ExpenseStatus) => ClaimAction[] }[] = [
  { name: 'the key that filed it', viewer: { role: 'apiKey' }, createdBy: KEY_OWNER, may: (status) => OWNER_MAY[status] },
  { name: 'the admin, on a key’s claim', viewer: { role: 'admin' }, createdBy: KEY_OWNER, may: (status) => ADMIN_MAY[status] },
  { name: 'the admin, on its own claim', viewer: { role: 'admin' }, createdBy: 'admin', may: (status) => [...OWNER_MAY[status], ...ADMIN_MAY[status]] },
];
const ACTIONS: ClaimAction[] = ['edit', 'delete', 'submit', 'process', 'approve', 'reject'];

describe('expense claim machine: the chart', () => {
  for (const { name, viewer, createdBy, may } of viewers) {
    for (const status of EXPENSE_STATUSES) {
      it(`${name}, on a claim that is ${status}: offers ${may(status).join(', ') || 'nothing'}, and does exactly that`, async () => {
        expect([...allowedActions(claimIn(status, createdBy), viewer)].sort()).toEqual([...may(status)].sort());
        for (const action of ACTIONS) {
          const { actor, calls, announced, current } = await openClaim(claimIn(status, createdBy), viewer);
          actor.send(pageEvent[action]);
          await settled(actor);
          const state = actor.getSnapshot();
          if (!may(status).includes(action)) {
            // Refused before any request: nothing sent, nothing changed.
            expect({ action, fired: calls.fired, deleted: calls.deleted, state: state.value }).toEqual({ action, fired: [], deleted: 0, state: 'viewing' });
            expect(state.context.claim?.status).toBe(status);
            continue;
          }
          if (action === 'edit') {
            expect(state.hasTag('editing')).toBe(true);
          } else if (action === 'delete') {
            expect(state.status).toBe('done');
            expect(calls.deleted).toBe(1);
          } else {
            const event = action as ExpenseEvent;
            expect(calls.fired).toEqual([{ claimId: 'c1', event, ...(event === 'reject' && { note: 'The receipt is missing' }) }]);
            expect(state.value).toBe('viewing');
            expect(state.context.claim?.status).toBe(expenseStatusAfter(status, event));
            expect(state.context.claim).toEqual(current());
          }
          if (action !== 'edit') expect(announced).toEqual([action]);
          actor.stop();
        }
      });
    }
  }
});

describe('expense claim machine', () => {
  it('files, is rejected with a note, edited, submitted again and approved: five events in order', async () => {
    const owner = await openClaim(claimIn('draft'), { role: 'apiKey' });
    owner.actor.send({ type: 'claim.submit' });
    await settled(owner.actor);

    const admin = fakeServer(owner.current());
    const review = createActor(admin.machine, { input: { claimId: 'c1', viewer: { role: 'admin' } } }).start();
    await settled(review);
    review.send({ type: 'claim.process' });
    await settled(review);
    review.send({ type: 'dialog.open', dialog: 'reject' });
    expect(review.getSnapshot().context.dialog).toBe('reject');
    review.send({ type: 'claim.reject', note: '  The taxi receipt is unreadable  ' });
    await settled(review);
    expect(review.getSnapshot().context.dialog).toBeNull();

    owner.setClaim(admin.current());
    owner.actor.send({ type: 'claim.reload' });
    await settled(owner.actor);
    owner.actor.send({ type: 'claim.edit' });
    owner.actor.send({ type: 'edit.save', changes: { amount_minor: 3900 } });
    await settled(owner.actor);
    expect(owner.calls.updated).toEqual([{ amount_minor: 3900 }]);
    owner.actor.send({ type: 'claim.submit' });
    await settled(owner.actor);

    admin.setClaim(owner.current());
    review.send({ type: 'claim.reload' });
    await settled(review);
    review.send({ type: 'claim.process' });
    await settled(review);
    review.send({ type: 'claim.approve' });
    await settled(review);

    const claim = review.getSnapshot().context.claim;
    expect(claim?.status).toBe('approved');
    expect(claim?.amount_minor).toBe(3900);
    expect(claim?.events.map((event) => `${event.from_status}→${event.to_status}`)).toEqual([
      'draft→submitted',
      'submitted→processing',
      'processing→rejected',
      'rejected→submitted',
      'submitted→processing',
      'processing→approved',
    ]);
    expect(claim?.events[2]?.note).toBe('The taxi receipt is unreadable');
    expect(allowedActions(claim!, { role: 'admin' })).toEqual([]);
  });

  it('refuses a rejection without a note, and a dialog for an action the viewer may not take', async () => {
    const { actor, calls } = await openClaim(claimIn('processing'), { role: 'admin' });
    actor.send({ type: 'claim.reject', note: '   ' });
    expect(actor.getSnapshot().value).toBe('viewing');
    expect(calls.fired).toEqual([]);
    actor.send({ type: 'dialog.open', dialog: 'delete' });
    expect(actor.getSnapshot().context.dialog).toBeNull();
    actor.send({ type: 'dialog.open', dialog: 'reject' });
    actor.send({ type: 'dialog.close' });
    expect(actor.getSnapshot().context.dialog).toBeNull();
  });

  it('a refusal keeps the claim and says why; a 409 (the claim changed meanwhile) loads it again', async () => {
    const { actor, failNext, setClaim, calls } = await openClaim(claimIn('draft'), { role: 'apiKey' });
    failNext(refusal(500, 'Database unavailable'));
    actor.send({ type: 'claim.submit' });
    await settled(actor);
    expect(actor.getSnapshot().value).toBe('viewing');
    expect(actor.getSnapshot().context.actionFailure?.message).toBe('Database unavailable');
    expect(actor.getSnapshot().context.claim?.status).toBe('draft');

    // Submitted from another tab: this page still offers submit; the server refuses, and the page catches up.
    setClaim(claimIn('submitted'));
    const loadsBefore = calls.loads;
    actor.send({ type: 'claim.submit' });
    await settled(actor);
    expect(calls.loads).toBe(loadsBefore + 1);
    expect(actor.getSnapshot().context.actionFailure?.status).toBe(409);
    expect(actor.getSnapshot().context.claim?.status).toBe('submitted');
    expect(allowedActions(actor.getSnapshot().context.claim!, { role: 'apiKey' })).toEqual([]);
  });

  it('an edit that fails stays open with the server’s words; cancel closes it', async () => {
    const { actor, failNext } = await openClaim(claimIn('rejected'), { role: 'apiKey' });
    actor.send({ type: 'claim.edit' });
    failNext(refusal(400, 'Unknown category'));
    actor.send({ type: 'edit.save', changes: { category: 'yachts' } });
    await settled(actor);
    expect(actor.getSnapshot().hasTag('editing')).toBe(true);
    expect(actor.getSnapshot().context.actionFailure?.message).toBe('Unknown category');
    actor.send({ type: 'edit.cancel' });
    expect(actor.getSnapshot().value).toBe('viewing');
    expect(actor.getSnapshot().context.actionFailure).toBeUndefined();
  });

  it('adds an uploaded receipt, and deletes one only while the claim is editable', async () => {
    const receipt: ExpenseReceipt = { id: 'r1', filename: 'taxi.png', content_type: 'image/png', size: 10, created_at: '2026-11-21T10:00:00Z' };
    const { actor, calls, setClaim, announced } = await openClaim(claimIn('draft'), { role: 'apiKey' });
    actor.send({ type: 'receipt.added', receipt });
    actor.send({ type: 'receipt.added', receipt });
    expect(actor.getSnapshot().context.claim?.receipts).toEqual([receipt]);
    expect(actor.getSnapshot().context.claim?.receipt_count).toBe(1);

    setClaim({ ...claimIn('draft'), receipts: [receipt], receipt_count: 1 });
    actor.send({ type: 'receipt.delete', receiptId: 'r1' });
    await settled(actor);
    expect(calls.receiptsDeleted).toEqual(['r1']);
    expect(announced).toEqual(['receiptDeleted']);
    expect(actor.getSnapshot().context.claim?.receipts).toEqual([]);

    const submitted = await openClaim({ ...claimIn('submitted'), receipts: [receipt] }, { role: 'apiKey' });
    submitted.actor.send({ type: 'receipt.delete', receiptId: 'r1' });
    await settled(submitted.actor);
    expect(submitted.calls.receiptsDeleted).toEqual([]);
  });

  it('a claim that cannot be loaded says why, and loads again on reload', async () => {
    const server = fakeServer(claimIn('draft'));
    server.failNext(refusal(404, 'Expense claim not found'));
    const actor = createActor(server.machine, { input: { claimId: 'c1', viewer: { role: 'apiKey' } } }).start();
    await settled(actor);
    expect(actor.getSnapshot().hasTag('error')).toBe(true);
    expect(actor.getSnapshot().context.failure?.status).toBe(404);
    actor.send({ type: 'claim.reload' });
    await settled(actor);
    expect(actor.getSnapshot().hasTag('ready')).toBe(true);
    expect(actor.getSnapshot().context.failure).toBeUndefined();
  });
});
