import { and, assign, fromPromise, setup, type DoneActorEvent, type ErrorActorEvent } from 'xstate';
import { asRequestFailure, type RequestFailure } from '../contract/envelope';
import {
  availableExpenseEvents,
  canDeleteExpense,
  canEditExpense,
  type ExpenseClaim,
  type ExpenseClaimDetail,
  type ExpenseEvent,
  type ExpenseReceipt,
  type UpdateExpenseRequest,
} from '../contract/expenses';

/** Who looks at the claim: the admin, or an API key (a key only ever sees its own claims). */
export interface ClaimViewer {
  role: 'admin' | 'apiKey';
}

/** Everything the claim page may offer: the chart's events, and the owner's edit and delete. */
export type ClaimAction = ExpenseEvent | 'edit' | 'delete';

/** The viewer's roles on this claim: the admin owns the claims it filed itself. */
export const viewerRoles = (claim: Pick<ExpenseClaim, 'created_by'>, viewer: ClaimViewer) => ({
  owner: viewer.role === 'apiKey' || claim.created_by === 'admin',
  admin: viewer.role === 'admin',
});

/** What this viewer may do to the claim in its status, from the contract's table: the page offers exactly these. */
export function allowedActions(claim: Pick<ExpenseClaim, 'created_by' | 'status'>, viewer: ClaimViewer): ClaimAction[] {
  const roles = viewerRoles(claim, viewer);
  return [
    ...(roles.owner && canEditExpense(claim.status) ? (['edit'] as const) : []),
    ...(roles.owner && canDeleteExpense(claim.status) ? (['delete'] as const) : []),
    ...availableExpenseEvents(claim.status, roles),
  ];
}

export type ClaimDialog = 'reject' | 'delete';

export interface ClaimContext {
  claimId: string;
  viewer: ClaimViewer;
  claim?: ExpenseClaimDetail;
  /** Why the claim could not be loaded. */
  failure?: RequestFailure;
  /** Why the last action (an event, a save, a delete) was refused; cleared by the next one. */
  actionFailure?: RequestFailure;
  dialog: ClaimDialog | null;
  /** The chart's event being sent. */
  firing?: ExpenseEvent;
}

export type ClaimEvent =
  | { type: 'claim.reload' }
  | { type: 'claim.submit' }
  | { type: 'claim.process' }
  | { type: 'claim.approve' }
  /** A rejection must say why: an empty note is refused. */
  | { type: 'claim.reject'; note: string }
  /** Confirmed in its dialog. */
  | { type: 'claim.delete' }
  | { type: 'claim.edit' }
  | { type: 'edit.save'; changes: UpdateExpenseRequest }
  | { type: 'edit.cancel' }
  /** A receipt's upload task finished: the receipt joins the claim. */
  | { type: 'receipt.added'; receipt: ExpenseReceipt }
  | { type: 'receipt.delete'; receiptId: string }
  | { type: 'dialog.open'; dialog: ClaimDialog }
  | { type: 'dialog.close' };

export interface ClaimInput {
  claimId: string;
  viewer: ClaimViewer;
}

/** The transition each chart event fires, and the note sent with it. */
export interface FireInput {
  claimId: string;
  event: ExpenseEvent;
  note?: string;
}

const failureOf = ({ event }: { event: ErrorActorEvent }) => asRequestFailure(event.error);
const claimOf = ({ event }: { event: DoneActorEvent<ExpenseClaimDetail> }) => event.output;

/** The chart's event each page event fires. */
const FIRES = { 'claim.submit': 'submit', 'claim.process': 'process', 'claim.approve': 'approve', 'claim.reject': 'reject' } as const;
type FiringEvent = Extract<ClaimEvent, { type: keyof typeof FIRES }>;

/**
 * One expense claim as its page shows it: loads it, then offers the actions `allowedActions` names for this viewer;
 * any other is refused here, before a request. The chart's events, saving an edit, deleting the claim and deleting
 * a receipt are provided actors; the server answers the claim as it now is. A refusal because the claim changed
 * meanwhile (409) loads it again. Tags: `busy` while loading or acting, `error` when it could not be loaded,
 * `ready` with a claim, `editing` while its form is open.
 */
export const expenseClaimMachine = setup({
  types: {
    context: {} as ClaimContext,
    events: {} as ClaimEvent,
    input: {} as ClaimInput,
  },
  actors: {
    loadClaim: fromPromise<ExpenseClaimDetail, { claimId: string }>(() => Promise.reject(new Error('loadClaim not provided'))),
    fireEvent: fromPromise<ExpenseClaimDetail, FireInput>(() => Promise.reject(new Error('fireEvent not provided'))),
    updateClaim: fromPromise<ExpenseClaimDetail, { claimId: string; changes: UpdateExpenseRequest }>(() =>
      Promise.reject(new Error('updateClaim not provided')),
    ),
    deleteClaim: fromPromise<void, { claimId: string }>(() => Promise.reject(new Error('deleteClaim not provided'))),
    deleteReceipt: fromPromise<void, { claimId: string; receiptId: string }>(() => Promise.reject(new Error('deleteReceipt not provided'))),
  },
  actions: {
    /** Tells the user an action went through (provided by the app: a toast). */
    announce: (_, _params: { action: ClaimAction | 'receiptDeleted' }) => {},
  },
  guards: {
    allowed: ({ context }, action: ClaimAction) => context.claim !== undefined && allowedActions(context.claim, context.viewer).includes(action),
    noteGiven: ({ event }) => event.type === 'claim.reject' && event.note.trim().length > 0,
    /** The claim changed under the user (another tab, the reviewer): its status no longer allows the action. */
    conflict: ({ event }) => 'error' in event && asRequestFailure(event.error).status === 409,
  },
}).createMachine({
  id: 'expenseClaim',
  context: ({ input }) => ({ claimId: input.claimId, viewer: input.viewer, dialog: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        src: 'loadClaim',
        input: ({ context }) => ({ claimId: context.claimId }),
        onDone: { target: 'viewing', actions: assign({ claim: claimOf, failure: undefined }) },
        onError: { target: 'failed', actions: assign({ failure: failureOf }) },
      },
    },
    failed: {
      tags: ['error'],
      on: { 'claim.reload': 'loading' },
    },
    viewing: {
      tags: ['ready'],
      on: {
        'claim.reload': 'loading',
        'claim.submit': { guard: { type: 'allowed', params: 'submit' }, target: 'firing', actions: assign({ firing: 'submit' as const, actionFailure: undefined }) },
        'claim.process': { guard: { type: 'allowed', params: 'process' }, target: 'firing', actions: assign({ firing: 'process' as const, actionFailure: undefined }) },
        'claim.approve': { guard: { type: 'allowed', params: 'approve' }, target: 'firing', actions: assign({ firing: 'approve' as const, actionFailure: undefined }) },
        'claim.reject': {
          guard: and([{ type: 'allowed', params: 'reject' as const }, 'noteGiven']),
          target: 'firing',
          actions: assign({ firing: 'reject' as const, actionFailure: undefined }),
        },
        'claim.delete': { guard: { type: 'allowed', params: 'delete' }, target: 'deleting', actions: assign({ actionFailure: undefined }) },
        'claim.edit': { guard: { type: 'allowed', params: 'edit' }, target: 'editing', actions: assign({ actionFailure: undefined, dialog: null }) },
        'receipt.delete': { guard: { type: 'allowed', params: 'edit' }, target: 'removingReceipt', actions: assign({ actionFailure: undefined }) },
        'dialog.open': {
          guard: ({ context, event }) => context.claim !== undefined && allowedActions(context.claim, context.viewer).includes(event.dialog),
          actions: assign({ dialog: ({ event }) => event.dialog, actionFailure: undefined }),
        },
        'dialog.close': { actions: assign({ dialog: null }) },
      },
    },
    editing: {
      tags: ['ready', 'editing'],
      on: {
        'edit.save': { target: 'saving' },
        'edit.cancel': { target: 'viewing', actions: assign({ actionFailure: undefined }) },
      },
    },
    saving: {
      tags: ['busy', 'editing'],
      invoke: {
        src: 'updateClaim',
        input: ({ context, event }) => ({ claimId: context.claimId, changes: (event as Extract<ClaimEvent, { type: 'edit.save' }>).changes }),
        onDone: { target: 'viewing', actions: [assign({ claim: claimOf, actionFailure: undefined }), { type: 'announce', params: { action: 'edit' } }] },
        onError: [
          { guard: 'conflict', target: 'loading', actions: assign({ actionFailure: failureOf }) },
          { target: 'editing', actions: assign({ actionFailure: failureOf }) },
        ],
      },
    },
    /** One of the chart's events (`firing` names it), sent to the server with a rejection's note. */
    firing: {
      tags: ['busy'],
      invoke: {
        src: 'fireEvent',
        input: ({ context, event }) => {
          const fired = event as FiringEvent;
          return { claimId: context.claimId, event: FIRES[fired.type], ...(fired.type === 'claim.reject' && { note: fired.note.trim() }) };
        },
        onDone: {
          target: 'viewing',
          actions: [
            assign({ claim: claimOf, dialog: null }),
            { type: 'announce', params: ({ context }) => ({ action: context.firing ?? 'submit' }) },
          ],
        },
        onError: [
          { guard: 'conflict', target: 'loading', actions: assign({ actionFailure: failureOf, dialog: null }) },
          { target: 'viewing', actions: assign({ actionFailure: failureOf }) },
        ],
      },
    },
    deleting: {
      tags: ['busy'],
      invoke: {
        src: 'deleteClaim',
        input: ({ context }) => ({ claimId: context.claimId }),
        onDone: { target: 'deleted', actions: [assign({ dialog: null }), { type: 'announce', params: { action: 'delete' } }] },
        onError: [
          { guard: 'conflict', target: 'loading', actions: assign({ actionFailure: failureOf, dialog: null }) },
          { target: 'viewing', actions: assign({ actionFailure: failureOf }) },
        ],
      },
    },
    removingReceipt: {
      tags: ['busy', 'ready'],
      invoke: {
        src: 'deleteReceipt',
        input: ({ context, event }) => ({ claimId: context.claimId, receiptId: (event as Extract<ClaimEvent, { type: 'receipt.delete' }>).receiptId }),
        onDone: { target: 'loading', actions: { type: 'announce', params: { action: 'receiptDeleted' } } },
        onError: [
          { guard: 'conflict', target: 'loading', actions: assign({ actionFailure: failureOf }) },
          { target: 'viewing', actions: assign({ actionFailure: failureOf }) },
        ],
      },
    },
    /** The claim is gone: the page leaves for the list. */
    deleted: { type: 'final' },
  },
  on: {
    'receipt.added': {
      guard: ({ context }) => context.claim !== undefined,
      actions: assign({
        claim: ({ context, event }) => {
          if (!context.claim) return context.claim;
          const receipts = [...context.claim.receipts.filter((receipt) => receipt.id !== event.receipt.id), event.receipt];
          return { ...context.claim, receipts, receipt_count: receipts.length };
        },
      }),
    },
  },
});
