import { assertEvent, assign, fromCallback, setup, type ActorRefFrom } from 'xstate';
import {
  isBatchPayload,
  isRetryable,
  joinItemsResults,
  type BatchFile,
  type ConflictDecision,
  type ConflictResolution,
  type FsConflict,
  type FsItemsResult,
  type TaskPayload,
  type TaskType,
  type TransferError,
  type TransferProgress,
  type UploadStage,
} from '../contract/transfer';

/**
 * Per-item counts of tasks over many files (copy, move, delete, batch uploads); `replaced` and `renamed` are
 * among `success`, and `conflicts` are names found taken, waiting for the user's decision.
 */
export interface ItemCounts {
  success: number;
  skipped: number;
  failed: number;
  replaced?: number;
  renamed?: number;
  conflicts?: number;
}

/** How a task rebuilt after a reload starts. */
export type RestoredStatus = 'awaitingFile' | 'awaitingDecision' | 'running' | 'paused' | 'completed' | 'partial' | 'failed' | 'cancelled';

export interface TaskInput {
  id: string;
  type: TaskType;
  /** What the user recognises the task by, e.g. the file name. */
  label: string;
  /** What the runner needs (a File and options for uploads); the machine reads only what every kind shares. */
  payload: TaskPayload;
  /** Set for tasks rebuilt from the journal after a reload. */
  restored?: { status: RestoredStatus; progress?: TransferProgress; result?: unknown; error?: TransferError };
}

export interface TaskContext extends Omit<TaskInput, 'restored'> {
  progress: TransferProgress;
  stage?: UploadStage;
  error?: TransferError;
  /** The finished task's answer (a file share for uploads). */
  result?: unknown;
  counts?: ItemCounts;
  currentFile?: string;
  restoredAs?: RestoredStatus;
  /** What the runs before a retry of a copy or delete achieved: the runner does only what they left undone. */
  previous?: unknown;
  /** The conflicts the last run met and what the user chose for them, for the run that follows. */
  resolution?: ConflictResolution;
}

/**
 * What the runner is given: the task, on a retry what the runs before achieved, and after the user decided on
 * conflicts, that decision.
 */
export interface RunnerInput extends Omit<TaskInput, 'restored'> {
  previous?: unknown;
  resolution?: ConflictResolution;
}

/** What a running task's runner reports back. */
export type RunnerEvent =
  | { type: 'engine.stage'; stage: UploadStage }
  | { type: 'engine.progress'; progress: TransferProgress }
  | { type: 'engine.item'; currentFile: string; counts: ItemCounts }
  | { type: 'engine.done'; result: unknown }
  | { type: 'engine.failed'; error: TransferError };

export type TaskEvent =
  | RunnerEvent
  | { type: 'task.cancel' }
  | { type: 'task.retry' }
  /** After a reload: the user picked the file again so that its upload can resume. */
  | { type: 'task.fileProvided'; file: File }
  /** After a reload: the user picked a batch's files (or their folder) again. */
  | { type: 'task.filesProvided'; files: BatchFile[] }
  /** A batch stops sending and keeps what the server acknowledged; resume sends the rest. */
  | { type: 'task.pause' }
  | { type: 'task.resume' }
  /** The user decided what becomes of the names the run found taken. */
  | { type: 'task.resolve'; decision: ConflictDecision };

const idle: TransferProgress = { loaded: 0, total: 0, percent: 0, speed: 0, secondsLeft: null };

/** Tasks whose retry runs only the items that failed; a download makes its whole zip again. */
const RETRIES_FAILED_ONLY: readonly TaskType[] = ['copy', 'move', 'delete'];

export const isItemsResult = (value: unknown): value is FsItemsResult =>
  typeof value === 'object' && value !== null && ['succeeded', 'skipped', 'failed'].every((key) => Array.isArray((value as Record<string, unknown>)[key]));

/**
 * A finished run's result joined to what the runs before it achieved (a retry ran only their failures, so its
 * failures are the ones that remain), and the counts of the whole task.
 */
function settled(previous: unknown, result: unknown): { result: unknown; counts?: ItemCounts } {
  if (!isItemsResult(result)) return { result };
  const all = isItemsResult(previous) ? joinItemsResults(previous, result) : result;
  return { result: all, counts: countsOf(all) };
}

/** The counts of a result; the kinds of success and the conflicts only where there are some. */
const countsOf = (result: FsItemsResult): ItemCounts => {
  const extra = { replaced: result.replaced?.length ?? 0, renamed: result.renamed?.length ?? 0, conflicts: result.conflicts?.length ?? 0 };
  return {
    success: result.succeeded.length,
    skipped: result.skipped.length,
    failed: result.failed.length,
    ...Object.fromEntries(Object.entries(extra).filter(([, count]) => count > 0)),
  };
};

/** The names a finished run found taken, waiting for the user (none for a result of another shape). */
export const conflictsOf = (result: unknown): FsConflict[] => (isConflicted(result) ? result.conflicts : []);
const isConflicted = (result: unknown): result is { conflicts: FsConflict[] } =>
  typeof result === 'object' && result !== null && Array.isArray((result as { conflicts?: unknown }).conflicts) && (result as { conflicts: unknown[] }).conflicts.length > 0;

/** The items a finished run names as failed: of a run over items, or of a server job. */
export const failedItemsOf = (result: unknown): FsItemsResult['failed'] =>
  typeof result === 'object' && result !== null && Array.isArray((result as { failed?: unknown }).failed) ? (result as FsItemsResult).failed : [];

/** Failed items that a plain retry may mend (see isRetryable); a task that failed whole can always be tried again. */
export const retryableFailures = (result: unknown): FsItemsResult['failed'] => failedItemsOf(result).filter(({ error }) => isRetryable(error));

/** Tasks the server runs: cancel and pause are told to it, and its job goes on when this page is gone. */
const isServerJob = (payload: TaskPayload) => payload.kind === 'serverJob';

/** The action that tells the server of a cancel or pause (a no-op for tasks the engine runs). */
const tellServer = (command: 'cancel' | 'pause') => ({
  type: 'commandServer' as const,
  params: ({ context }: { context: TaskContext }) => ({ payload: context.payload, command }),
});

/** A local file or files the upload needs, absent after a reload until picked again (URL uploads need none). */
function lacksLocalFiles(payload: TaskPayload): boolean {
  switch (payload.kind) {
    case 'shareUpload':
      return !payload.file && !payload.url;
    case 'fsBatchUpload':
      return !payload.files && !payload.directory;
    case 'shareBatchUpload':
      return !payload.files;
    case 'fsUpload':
    case 'fileRequestUpload':
    case 'receiptUpload':
      return !payload.file;
    default:
      return false;
  }
}

/** The payload with the file picked again after a reload, continuing the journal's upload. */
function withPickedFile(payload: TaskPayload, file: File): TaskPayload {
  return payload.kind === 'shareUpload' || payload.kind === 'fsUpload' || payload.kind === 'fileRequestUpload' ? { ...payload, file, resume: true } : payload;
}

/** The payload with a batch's files picked again after a reload. */
function withPickedFiles(payload: TaskPayload, files: BatchFile[]): TaskPayload {
  return payload.kind === 'fsBatchUpload' || payload.kind === 'shareBatchUpload' ? { ...payload, files, resume: true } : payload;
}

/**
 * One task: running → completed | partial | failed | cancelled; a failed or cancelled task can be retried.
 * A task rebuilt after a reload may wait for its file (or a batch's files) first; a batch upload can be paused. The runner (the transfer engine behind Comlink)
 * is provided by the app; leaving `running` stops it, which is how a cancel reaches the engine. A retry of a copy
 * or delete hands the runner what the runs so far achieved, so that it runs again only the items that failed; the
 * task's result and counts are then those of all its runs.
 * Tags for the UI: `busy`, `error`, `done`, `needsFile`, `paused`.
 */
export const taskMachine = setup({
  types: {
    context: {} as TaskContext,
    events: {} as TaskEvent,
    input: {} as TaskInput,
  },
  actors: {
    runTask: fromCallback<TaskEvent, RunnerInput>(() => () => {}),
  },
  actions: {
    /** A retry starts from zero, keeping what the runs so far achieved for the runner. */
    restart: assign({
      progress: idle,
      stage: undefined,
      error: undefined,
      result: undefined,
      counts: undefined,
      previous: ({ context }) => (RETRIES_FAILED_ONLY.includes(context.type) ? (context.result ?? context.previous) : undefined),
    }),
    settle: assign(({ context, event }) => {
      assertEvent(event, 'engine.done');
      return settled(context.previous, event.result);
    }),
    /** Tells the server a job's task was cancelled or paused (provided by the app; other tasks stop in the engine). */
    commandServer: (_, _params: { payload: TaskPayload; command: 'cancel' | 'pause' }) => {},
    /** The user's decision on the conflicts of the result, for the next run. */
    decide: assign({
      resolution: ({ context, event }) => {
        assertEvent(event, 'task.resolve');
        return { decision: event.decision, conflicts: conflictsOf(context.result) };
      },
    }),
  },
  guards: {
    /** A local-file upload rebuilt after a reload has no file until the user picks it again (URL uploads need none). */
    fileMissing: ({ context }) => context.type === 'upload' && lacksLocalFiles(context.payload),
    pausable: ({ context }) => isBatchPayload(context.payload) || isServerJob(context.payload),
    hasConflicts: ({ event }) => {
      assertEvent(event, 'engine.done');
      return conflictsOf(event.result).length > 0;
    },
    /** A partly done task retries only its items worth another try; with none, "Retry" has nothing to do. */
    someRetryable: ({ context }) => retryableFailures(context.result).length > 0,
    restoredAs: ({ context }, status: RestoredStatus) => context.restoredAs === status,
    /** The run's per-item result says so, or else the last counts the runner sent. */
    someFailed: ({ context, event }) => {
      // Failures a retry left alone still count: the whole task's result, as settle will make it.
      assertEvent(event, 'engine.done');
      const { result } = settled(context.previous, event.result);
      return isItemsResult(result) ? result.failed.length > 0 : (context.counts?.failed ?? 0) > 0;
    },
  },
}).createMachine({
  id: 'task',
  context: ({ input }) => {
    const { restored, ...task } = input;
    return {
      ...task,
      progress: restored?.progress ?? idle,
      ...(restored && { restoredAs: restored.status, result: restored.result, error: restored.error }),
      ...(isItemsResult(restored?.result) && { counts: countsOf(restored.result) }),
    };
  },
  initial: 'starting',
  states: {
    starting: {
      always: [
        { guard: { type: 'restoredAs', params: 'awaitingFile' }, target: 'awaitingFile' },
        { guard: { type: 'restoredAs', params: 'awaitingDecision' }, target: 'awaitingDecision' },
        { guard: { type: 'restoredAs', params: 'paused' }, target: 'paused' },
        { guard: { type: 'restoredAs', params: 'completed' }, target: 'completed' },
        { guard: { type: 'restoredAs', params: 'partial' }, target: 'partial' },
        { guard: { type: 'restoredAs', params: 'failed' }, target: 'failed' },
        { guard: { type: 'restoredAs', params: 'cancelled' }, target: 'cancelled' },
        { target: 'running' },
      ],
    },
    awaitingFile: {
      tags: ['needsFile'],
      on: {
        'task.fileProvided': {
          target: 'running',
          actions: assign({
            payload: ({ context, event }) => withPickedFile(context.payload, event.file),
          }),
        },
        'task.filesProvided': {
          target: 'running',
          actions: assign({
            payload: ({ context, event }) => withPickedFiles(context.payload, event.files),
          }),
        },
        'task.cancel': 'cancelled',
      },
    },
    running: {
      tags: ['busy'],
      invoke: {
        src: 'runTask',
        input: ({ context }): RunnerInput => ({
          id: context.id,
          type: context.type,
          label: context.label,
          payload: context.payload,
          ...(context.previous !== undefined && { previous: context.previous }),
          ...(context.resolution && { resolution: context.resolution }),
        }),
      },
      on: {
        'engine.stage': { actions: assign({ stage: ({ event }) => event.stage }) },
        'engine.progress': { actions: assign({ progress: ({ event }) => event.progress }) },
        'engine.item': { actions: assign({ currentFile: ({ event }) => event.currentFile, counts: ({ event }) => event.counts }) },
        'engine.done': [
          { guard: 'hasConflicts', target: 'awaitingDecision', actions: 'settle' },
          { guard: 'someFailed', target: 'partial', actions: 'settle' },
          { target: 'completed', actions: 'settle' },
        ],
        'engine.failed': [
          { guard: ({ event }) => event.error.code === 'cancelled', target: 'cancelled' },
          { target: 'failed', actions: assign({ error: ({ event }) => event.error }) },
        ],
        'task.cancel': { target: 'cancelled', actions: tellServer('cancel') },
        'task.pause': { guard: 'pausable', target: 'paused', actions: tellServer('pause') },
      },
    },
    /** Stopped by the user; what the server acknowledged stays done (the engine's journal keeps it). */
    paused: {
      tags: ['paused'],
      on: {
        'task.resume': 'running',
        'task.cancel': { target: 'cancelled', actions: tellServer('cancel') },
      },
    },
    /**
     * The run found names taken (and wrote nothing over them): the user chooses skip, replace or keep both, once
     * for the task; the next run does those items as chosen, and what the run before did stays done.
     */
    awaitingDecision: {
      tags: ['needsDecision'],
      on: {
        'task.resolve': [
          { guard: 'fileMissing', target: 'awaitingFile', actions: 'decide' },
          { target: 'running', actions: ['decide', 'restart'] },
        ],
        'task.cancel': 'cancelled',
      },
    },
    completed: { tags: ['done'] },
    /** Finished, but some items failed: the counts say how many. */
    partial: {
      tags: ['done', 'error'],
      on: {
        'task.retry': [
          { guard: 'fileMissing', target: 'awaitingFile' },
          { guard: 'someRetryable', target: 'running', actions: 'restart' },
        ],
      },
    },
    failed: {
      tags: ['error'],
      on: { 'task.retry': [{ guard: 'fileMissing', target: 'awaitingFile' }, { target: 'running', actions: 'restart' }] },
    },
    cancelled: {
      on: { 'task.retry': [{ guard: 'fileMissing', target: 'awaitingFile' }, { target: 'running', actions: 'restart' }] },
    },
  },
});

export type TaskActor = ActorRefFrom<typeof taskMachine>;

export const FINISHED_STATES = ['completed', 'partial', 'failed', 'cancelled'] as const;
export const isFinished = (status: string) => (FINISHED_STATES as readonly string[]).includes(status);
