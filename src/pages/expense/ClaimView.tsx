import { useLingui } from '@lingui/react/macro';
import { ArrowLeft, Check, CircleAlert, Pencil, PlayCircle, Send, Trash2, X } from 'lucide-react';
import { useCallback, useEffect, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { EXPENSE_RECEIPTS_MAX, type ExpenseClaimDetail, type ExpenseReceipt } from '../../../contract/expenses';
import { allowedActions, type ClaimAction, type ClaimViewer } from '../../../machines/expense-claim.machine';
import { useTaskManager } from '../../app/actors';
import { receiptUploadTask } from '../../app/receipt-tasks';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { LinkButton } from '../../components/LinkButton';
import { Notice } from '../../components/Notice';
import { PageSkeleton } from '../../components/PageSkeleton';
import { TaskRow } from '../../components/task-manager/TaskRow';
import taskStyles from '../../components/task-manager/TaskManager.module.css';
import { formatCalendarDate, formatDateTime } from '../../lib/format';
import { toasts } from '../../lib/toast';
import { ClaimEditForm } from './ClaimEditForm';
import { sortReceipts } from './claim-form';
import { useExpenseText } from './expense-text';
import { ReceiptList } from './ReceiptList';
import { ReceiptPicker } from './ReceiptPicker';
import { RejectDialog } from './RejectDialog';
import { StatusBadge } from './StatusBadge';
import { Timeline } from './Timeline';
import { useClaim, useReceiptTasks, useUploadedReceipts, type ClaimActor } from './use-claim';
import styles from './Expense.module.css';

/** One claim: its fields, receipts and timeline, and the actions the chart allows this viewer now. */
export function ClaimView({ claimId, viewer }: { claimId: string; viewer: ClaimViewer }) {
  const { t } = useLingui();
  const { actor, snapshot, send } = useClaim(claimId, viewer);
  const [, navigate] = useLocation();
  const { claim, failure, actionFailure, dialog } = snapshot.context;
  const deleted = snapshot.status === 'done';
  useEffect(() => {
    if (deleted) navigate('/expense', { replace: true });
  }, [deleted, navigate]);

  if (!claim) {
    if (snapshot.hasTag('error') && failure) {
      return (
        <Notice
          role="alert"
          icon={<CircleAlert size={32} />}
          title={failure.status === 404 ? t`Claim not found` : t`The claim could not be loaded`}
          actions={
            <>
              <LinkButton href="/expense">{t`All claims`}</LinkButton>
              <Button variant="primary" onClick={() => send({ type: 'claim.reload' })}>
                {t`Retry`}
              </Button>
            </>
          }
        >
          {failure.message}
        </Notice>
      );
    }
    return <PageSkeleton lines={8} />;
  }

  const busy = snapshot.hasTag('busy');
  const editing = snapshot.hasTag('editing');
  const allowed = allowedActions(claim, viewer);
  return (
    <article className={styles.claim}>
      <LinkButton href="/expense" size="small">
        <ArrowLeft size={15} aria-hidden />
        {t`All claims`}
      </LinkButton>
      <header className={styles.header}>
        <div>
          <h1 className={styles.title}>{claim.title}</h1>
          <StatusBadge status={claim.status} />
        </div>
        {!editing && <ClaimActions allowed={allowed} busy={busy} actor={actor} />}
      </header>
      {actionFailure && !editing && (
        <p className="form-error" role="alert">
          {actionFailure.message}
        </p>
      )}
      <RejectionNote claim={claim} />
      {editing ? <ClaimEditForm claim={claim} actor={actor} busy={busy} serverError={actionFailure?.message} /> : <ClaimDetails claim={claim} showOwner={viewer.role === 'admin'} />}
      <Section title={t`Receipts`}>
        <ClaimReceipts claim={claim} actor={actor} editable={allowed.includes('edit') && !editing} busy={busy} />
      </Section>
      <Section title={t`Timeline`}>
        <Timeline events={claim.events} />
      </Section>
      <RejectDialog
        open={dialog === 'reject'}
        busy={busy}
        onClose={() => send({ type: 'dialog.close' })}
        onReject={(note) => send({ type: 'claim.reject', note })}
      />
      <ConfirmDialog
        open={dialog === 'delete'}
        onOpenChange={(open) => !open && send({ type: 'dialog.close' })}
        title={t`Delete this claim?`}
        description={t`The draft and its receipts are removed. This cannot be undone.`}
        confirmLabel={t`Delete`}
        busy={busy}
        onConfirm={() => send({ type: 'claim.delete' })}
      />
    </article>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className={styles.section}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

/** The buttons of the actions allowed now; an admin's rejection asks for its note in a dialog. */
function ClaimActions({ allowed, busy, actor }: { allowed: ClaimAction[]; busy: boolean; actor: ClaimActor }) {
  const { t } = useLingui();
  const buttons: Record<ClaimAction, ReactNode> = {
    edit: (
      <Button onClick={() => actor.send({ type: 'claim.edit' })}>
        <Pencil size={16} aria-hidden />
        {t`Edit`}
      </Button>
    ),
    delete: (
      <Button variant="danger" onClick={() => actor.send({ type: 'dialog.open', dialog: 'delete' })}>
        <Trash2 size={16} aria-hidden />
        {t`Delete`}
      </Button>
    ),
    submit: (
      <Button variant="primary" disabled={busy} onClick={() => actor.send({ type: 'claim.submit' })}>
        <Send size={16} aria-hidden />
        {t`Submit for review`}
      </Button>
    ),
    process: (
      <Button disabled={busy} onClick={() => actor.send({ type: 'claim.process' })}>
        <PlayCircle size={16} aria-hidden />
        {t`Start review`}
      </Button>
    ),
    approve: (
      <Button variant="primary" disabled={busy} onClick={() => actor.send({ type: 'claim.approve' })}>
        <Check size={16} aria-hidden />
        {t`Approve`}
      </Button>
    ),
    reject: (
      <Button variant="danger" disabled={busy} onClick={() => actor.send({ type: 'dialog.open', dialog: 'reject' })}>
        <X size={16} aria-hidden />
        {t`Reject`}
      </Button>
    ),
  };
  if (allowed.length === 0) return null;
  return (
    <div className={styles.actions} role="group" aria-label={t`Claim actions`}>
      {allowed.map((action) => (
        <span key={action}>{buttons[action]}</span>
      ))}
    </div>
  );
}

/** A rejected claim says why, above everything else, to whoever must fix it. */
function RejectionNote({ claim }: { claim: ExpenseClaimDetail }) {
  const { t } = useLingui();
  const rejection = claim.status === 'rejected' ? claim.events.findLast((event) => event.event === 'reject') : undefined;
  if (!rejection?.note) return null;
  const who = rejection.actor_name;
  return (
    <div className={styles.rejection} role="note">
      <strong>{t`Rejected by ${who}:`}</strong> {rejection.note}
    </div>
  );
}

function ClaimDetails({ claim, showOwner }: { claim: ExpenseClaimDetail; showOwner: boolean }) {
  const { t, i18n } = useLingui();
  const text = useExpenseText();
  return (
    <dl className={styles.details}>
      <div>
        <dt>{t`Amount`}</dt>
        <dd className={styles.amount}>{text.money(claim.amount_minor, claim.currency)}</dd>
      </div>
      <div>
        <dt>{t`Date spent`}</dt>
        <dd>{formatCalendarDate(claim.spent_on, i18n.locale)}</dd>
      </div>
      <div>
        <dt>{t`Category`}</dt>
        <dd>{text.category(claim.category)}</dd>
      </div>
      {showOwner && (
        <div>
          <dt>{t`Owner`}</dt>
          <dd>{claim.owner_name}</dd>
        </div>
      )}
      <div>
        <dt>{t`Filed`}</dt>
        <dd>{formatDateTime(claim.created_at, i18n.locale)}</dd>
      </div>
      {claim.description && (
        <div className={styles.wide}>
          <dt>{t`Description`}</dt>
          <dd className={styles.description}>{claim.description}</dd>
        </div>
      )}
    </dl>
  );
}

/**
 * The stored receipts, the claim's uploads still under way (tasks of the task manager, with their progress, cancel
 * and retry), and, while the owner may edit, more receipts dropped or picked.
 */
function ClaimReceipts({ claim, actor, editable, busy }: { claim: ExpenseClaimDetail; actor: ClaimActor; editable: boolean; busy: boolean }) {
  const { t } = useLingui();
  const text = useExpenseText();
  const tasks = useTaskManager();
  const uploads = useReceiptTasks(tasks, claim.id);
  const onUploaded = useCallback((receipt: ExpenseReceipt) => actor.send({ type: 'receipt.added', receipt }), [actor]);
  useUploadedReceipts(uploads, onUploaded);
  const pending = uploads.filter((task) => task.ref.getSnapshot().value !== 'completed');

  const addReceipts = (files: File[]) => {
    const room = EXPENSE_RECEIPTS_MAX - claim.receipts.length - pending.length;
    const { accepted, refused } = sortReceipts(files, room);
    for (const { file, problem } of refused) toasts.error(text.receiptProblem(file.name, problem));
    for (const file of accepted) tasks.send({ type: 'tasks.add', task: receiptUploadTask(claim.id, file) });
  };

  return (
    <>
      <ReceiptList claimId={claim.id} receipts={claim.receipts} busy={busy} onDelete={editable ? (receipt) => actor.send({ type: 'receipt.delete', receiptId: receipt.id }) : undefined} />
      {pending.length > 0 && (
        <ul className={taskStyles.list} aria-label={t`Receipts uploading`}>
          {pending.map((task) => (
            <TaskRow key={task.id} task={task.ref} onRemove={(id) => tasks.send({ type: 'task.remove', id })} />
          ))}
        </ul>
      )}
      {editable && <ReceiptPicker onFiles={addReceipts} />}
    </>
  );
}
