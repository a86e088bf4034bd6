import { t } from '@lingui/core/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { fromPromise } from 'xstate';
import { expenseClaimMachine, type ClaimAction, type ClaimViewer } from '../../../machines/expense-claim.machine';
import type { TaskManager } from '../../app/tasks';
import { deleteExpense, deleteReceipt, fireExpenseEvent, getExpense, updateExpense } from '../../lib/api/expenses';
import { toasts } from '../../lib/toast';
import type { ExpenseReceipt } from '../../../contract/expenses';

function announcement(action: ClaimAction | 'receiptDeleted'): string {
  switch (action) {
    case 'submit':
      return t`Claim submitted for review`;
    case 'process':
      return t`Review started`;
    case 'approve':
      return t`Claim approved`;
    case 'reject':
      return t`Claim rejected`;
    case 'edit':
      return t`Claim saved`;
    case 'delete':
      return t`Claim deleted`;
    case 'receiptDeleted':
      return t`Receipt deleted`;
  }
}

const claimLogic = expenseClaimMachine.provide({
  actors: {
    loadClaim: fromPromise(({ input }) => getExpense(input.claimId)),
    fireEvent: fromPromise(({ input }) => fireExpenseEvent(input.claimId, input.event, input.note)),
    updateClaim: fromPromise(({ input }) => updateExpense(input.claimId, input.changes)),
    deleteClaim: fromPromise(async ({ input }) => void (await deleteExpense(input.claimId))),
    deleteReceipt: fromPromise(async ({ input }) => void (await deleteReceipt(input.claimId, input.receiptId))),
  },
  actions: { announce: (_, { action }) => toasts.success(announcement(action)) },
});

/** The claim machine for this page, with the API behind it. */
export function useClaim(claimId: string, viewer: ClaimViewer) {
  const actor = useActorRef(claimLogic, { input: { claimId, viewer } });
  const snapshot = useSelector(actor, (state) => state);
  return { actor, snapshot, send: actor.send };
}

export type ClaimActor = ReturnType<typeof useClaim>['actor'];

/** The task manager's receipt uploads for this claim, newest last. */
export function useReceiptTasks(tasks: TaskManager, claimId: string) {
  return useSelector(
    tasks,
    (state) => state.context.tasks.filter((task) => {
      const payload = task.ref.getSnapshot().context.payload;
      return payload.kind === 'receiptUpload' && payload.claimId === claimId;
    }),
    (a, b) => a.length === b.length && a.every((task, index) => task === b[index]),
  );
}

/**
 * Each of `tasks` that completes hands its stored receipt to `onUploaded`. A task that completed before this page
 * subscribed (while the claim was loading) is handed over at once: a subscription only sees later changes.
 */
export function useUploadedReceipts(tasks: ReturnType<typeof useReceiptTasks>, onUploaded: (receipt: ExpenseReceipt) => void) {
  useEffect(() => {
    const subscriptions = tasks.map((task) => {
      const hand = (state: ReturnType<typeof task.ref.getSnapshot>) => {
        if (state.value === 'completed') onUploaded(state.context.result as ExpenseReceipt);
      };
      hand(task.ref.getSnapshot());
      return task.ref.subscribe(hand);
    });
    return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
  }, [tasks, onUploaded]);
}
