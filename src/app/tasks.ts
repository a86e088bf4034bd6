import { i18n } from '@lingui/core';
import { createActor, fromCallback, type Actor, type ActorOptions, type AnyActorLogic } from 'xstate';
import {
  isTransferError,
  type ApiAccess,
  type EngineEvent,
  type ExplorerTaskPayload,
  type FsItemsResult,
  type FsZipDownload,
  type JournalTask,
  type RequestUploadPayload,
  type ShareBatchPayload,
  type ServerJobPayload,
  type ShareUploadPayload,
  type TaskPayload,
  type TransferError,
  type ZipDestination,
} from '../../contract/transfer';
import type { authMachine, StoredCredentials } from '../../machines/auth.machine';
import { taskManagerMachine } from '../../machines/task-manager.machine';
import { conflictsOf, isItemsResult, taskMachine, type RestoredStatus, type RunnerInput, type TaskEvent, type TaskInput } from '../../machines/task.machine';
import { apiAccess, partsPerUpload, setPartsPerUpload, transferEngine } from '../lib/engine-client';
import { streamedDownload } from '../lib/streamed-download';
import { whenSignedIn } from './create-actors';
import { copyRunItems } from './explorer-tasks';
import { followServerJob, forgetServerJob, restoreServerJobs, tellServerJob } from './server-jobs';
import { fileRequestGrants, withGrant } from './file-request-tasks';

/**
 * The real runner of the task machine: hands the task to the transfer engine in the worker and relays its
 * events. Stopping the runner (cancel, or leaving the running state) cancels the task in the engine.
 */
const runTaskInEngine = (credentials: () => StoredCredentials) =>
  fromCallback<TaskEvent, RunnerInput>(({ input, sendBack }) => {
    // A server job runs on the server: its task follows the job's events, and leaving it stops nothing there.
    if (input.payload.kind === 'serverJob') return followServerJob(input, input.payload, sendBack);
    let finished = false;
    const finish = (event: TaskEvent) => {
      finished = true;
      sendBack(event);
    };
    const api = apiAccess(credentials(), i18n.locale);
    // The engine's events name their task; the task's own actor needs no name.
    const relay = ({ taskId: _taskId, ...event }: EngineEvent) => sendBack(event);
    const run = runPayload({ ...input, payload: input.payload }, api, relay);
    run.then(
      (result) => finish({ type: 'engine.done', result }),
      (error: unknown) => {
        const failure: TransferError = isTransferError(error) ? error : { code: 'unknown' };
        finish({ type: 'engine.failed', error: failure });
      },
    );
    return () => {
      if (!finished) void transferEngine.cancel(input.id);
    };
  });

const missingFile = () => Promise.reject({ code: 'unknown' } satisfies TransferError);

/** Hands a task to the engine pipeline its payload's kind calls for. */
function runPayload(input: RunnerInput & { payload: Exclude<TaskPayload, ServerJobPayload> }, api: ApiAccess, relay: (event: EngineEvent) => void): Promise<unknown> {
  const { payload } = input;
  switch (payload.kind) {
    case 'shareUpload':
      return runShareUpload(input.id, payload, api, relay);
    case 'shareBatchUpload':
      return runShareBatch(input.id, input.label, payload, api, relay);
    case 'fileRequestUpload':
      return runFileRequestUpload(input.id, payload, api, relay);
    case 'receiptUpload':
      return payload.file ? transferEngine.uploadReceipt({ taskId: input.id, api, claimId: payload.claimId, file: payload.file }, relay) : missingFile();
    default:
      return runExplorerTask(input, payload, api, relay);
  }
}

/** One file or a web address as a file share: new, or the journal's upload going on. */
function runShareUpload(taskId: string, payload: ShareUploadPayload, api: ApiAccess, relay: (event: EngineEvent) => void): Promise<unknown> {
  const config = payload.storageConfigId ? { storageConfigId: payload.storageConfigId } : {};
  if (payload.url) {
    if (payload.resume) return transferEngine.resumeUrl(taskId, api, relay);
    return transferEngine.uploadUrl({ taskId, api, url: payload.url, ...(payload.filename && { filename: payload.filename }), ...config, options: payload.options }, relay);
  }
  if (!payload.file) return missingFile();
  if (payload.resume) return transferEngine.resumeFile(taskId, payload.file, api, relay);
  return transferEngine.uploadFile({ taskId, api, file: payload.file, mimetype: payload.mimetype, ...config, options: payload.options }, relay);
}

/** Files shared together: a new batch, or the journal's (a retry or a reload) with the files it has not shared. */
function runShareBatch(taskId: string, label: string, payload: ShareBatchPayload, api: ApiAccess, relay: (event: EngineEvent) => void): Promise<unknown> {
  if (!payload.files) return missingFile();
  if (payload.resume) return transferEngine.resumeShareBatch(taskId, payload.files, api, relay);
  const config = payload.storageConfigId ? { storageConfigId: payload.storageConfigId } : {};
  return transferEngine.uploadShareBatch({ taskId, api, label, files: payload.files, options: payload.options, ...config }, relay);
}

/** A file through a file request, new or resumed, with the grant this browser holds for the request. */
function runFileRequestUpload(taskId: string, payload: RequestUploadPayload, api: ApiAccess, relay: (event: EngineEvent) => void): Promise<unknown> {
  const grant = fileRequestGrants.get(payload.slug);
  if (!grant) return Promise.reject({ code: 'unauthorized' } satisfies TransferError);
  if (!payload.file) return missingFile();
  const granted = withGrant(api, grant);
  return payload.resume
    ? transferEngine.resumeFile(taskId, payload.file, granted, relay)
    : transferEngine.uploadToRequest({ taskId, api: granted, slug: payload.slug, file: payload.file }, relay);
}

/**
 * The mount explorer's tasks, each handed to its engine pipeline. A retry of a copy or delete (`previous`: what the
 * runs before achieved; the task machine joins the results) runs only what failed.
 */
function runExplorerTask(input: RunnerInput, payload: ExplorerTaskPayload, api: ApiAccess, relay: (event: EngineEvent) => void): Promise<unknown> {
  const { id: taskId, label, resolution } = input;
  const previous = input.previous as FsItemsResult | undefined;
  const decided = resolution ? { resolution } : {};
  switch (payload.kind) {
    case 'fsUpload':
      if (!payload.file) return missingFile();
      return payload.resume
        ? transferEngine.resumeFile(taskId, payload.file, api, relay, resolution)
        : transferEngine.uploadToMount(
            { taskId, api, file: payload.file, folder: payload.folder, ...(payload.relativePath && { relativePath: payload.relativePath }), ...decided },
            relay,
          );
    case 'fsBatchUpload':
      if (payload.directory && !payload.resume) return transferEngine.uploadDirectoryToMount({ taskId, api, label, folder: payload.folder, directory: payload.directory, ...decided }, relay);
      if (!payload.files) return missingFile();
      return payload.resume
        ? transferEngine.resumeBatch(taskId, payload.files, api, relay, resolution)
        : transferEngine.uploadBatchToMount({ taskId, api, label, folder: payload.folder, files: payload.files, ...decided }, relay);
    case 'fsCopy': {
      const operation = payload.operation ?? 'copy';
      const items = copyRunItems(payload.items, previous, resolution);
      return transferEngine.copyInMounts({ taskId, api, items, operation }, relay, { taskType: operation, label, payload, ...(previous && { previous }) });
    }
    case 'fsDelete': {
      const paths = previous ? previous.failed.map((item) => item.path) : payload.paths;
      return transferEngine.deleteInMounts({ taskId, api, paths }, relay, { taskType: 'delete', label, payload, ...(previous && { previous }) });
    }
    case 'fsDownload': {
      // A picked file's handle is not kept: after a reload, a retry streams the zip as a download.
      const record = { taskType: 'download' as const, label, payload: { ...payload, saveTo: { kind: 'download' } satisfies ZipDestination } };
      return zipSink(payload.saveTo, payload.name).then((sink) => transferEngine.downloadZip({ taskId, api, paths: payload.paths, name: payload.name, sink }, relay, record));
    }
  }
}

/** Where a zip is written: the file the user picked, or a streamed download opened now (each run has its own). */
async function zipSink(saveTo: ZipDestination, name: string): Promise<FsZipDownload['sink']> {
  return saveTo.kind === 'file' ? saveTo : { kind: 'stream', writable: await streamedDownload(name) };
}

/** How a run that ended is shown again: waiting for the user's choice on conflicts, partly done, or done. */
function finishedStatus(result: unknown): RestoredStatus {
  if (conflictsOf(result).length > 0) return 'awaitingDecision';
  return isItemsResult(result) && result.failed.length > 0 ? 'partial' : 'completed';
}

/** Bytes of a batch's acknowledged files. */
function batchBytesDone(task: JournalTask): number {
  const done = new Set(task.done ?? []);
  return (task.batchFiles ?? []).reduce((sum, file) => sum + (done.has(file.relativePath) ? file.size : 0), 0);
}

/**
 * A copy, delete or zip download from the journal, as it ended; one the reload cut off shows as cancelled, and its
 * retry runs what it had not done.
 */
function itemsTaskFromJournal(task: JournalTask, record: NonNullable<JournalTask['itemsTask']>): TaskInput {
  const result = isItemsResult(task.result) ? task.result : undefined;
  const status: RestoredStatus = task.status === 'completed' ? finishedStatus(result) : task.status === 'failed' ? 'failed' : 'cancelled';
  return {
    id: task.taskId,
    type: record.taskType,
    label: record.label,
    payload: record.payload,
    restored: { status, ...(result && { result }), ...(task.error && { error: task.error }) },
  };
}

/** What an upload from the journal carries until its file (or its batch's files) is picked again. */
function restoredUploadPayload(task: JournalTask): TaskPayload {
  if (task.kind === 'fileRequest') return { kind: 'fileRequestUpload', slug: task.requestSlug ?? '', resume: true };
  const config = task.storageConfigId ? { storageConfigId: task.storageConfigId } : {};
  if (task.kind === 'shareBatch') {
    return { kind: 'shareBatchUpload', count: task.batchFiles?.length ?? 0, fromFolder: false, options: task.options, ...config, resume: true };
  }
  if (task.batchFiles) {
    const fromFolder = task.batchFiles.some((file) => file.relativePath.includes('/'));
    return { kind: 'fsBatchUpload', folder: task.fsFolder ?? '/', count: task.batchFiles.length, fromFolder, resume: true };
  }
  if (task.kind === 'fs') return { kind: 'fsUpload', folder: task.fsFolder ?? '/', resume: true };
  return { kind: 'shareUpload', ...(task.url && { url: task.url }), mimetype: task.mimetype, options: task.options, ...config, resume: true };
}

/** A journal entry as a task of the list: finished ones as they ended, unfinished uploads waiting for their file. */
export function taskFromJournal(task: JournalTask): TaskInput {
  if (task.itemsTask) return itemsTaskFromJournal(task, task.itemsTask);
  const loaded = task.batchFiles ? batchBytesDone(task) : Object.values(task.parts).reduce((sum, part) => sum + part.size, 0);
  // URL uploads resume by themselves; local files need the user to pick the file (or the batch's files) again.
  const status: RestoredStatus =
    task.status === 'completed'
      ? finishedStatus(task.result)
      : task.status === 'failed' || task.status === 'cancelled'
        ? task.status
        : task.kind === 'url'
          ? 'running'
          : 'awaitingFile';
  const payload = restoredUploadPayload(task);
  return {
    id: task.taskId,
    type: 'upload',
    label: task.label,
    payload,
    restored: {
      status,
      progress: { loaded, total: task.size, percent: task.size ? Math.floor((loaded / task.size) * 100) : 0, speed: 0, secondsLeft: null },
      ...(task.result !== undefined && { result: task.result }),
      ...(task.error && { error: task.error }),
    },
  };
}

/**
 * The app-wide task manager, wired to the engine. The journal's tasks are restored once someone signs in: a
 * visitor opening a share never starts the transfer worker.
 */
export function createTaskManager(auth: Actor<typeof authMachine>, inspect?: ActorOptions<AnyActorLogic>['inspect']) {
  const credentials = () => auth.getSnapshot().context;
  const manager = createActor(
    taskManagerMachine.provide({
      actors: {
        task: taskMachine.provide({
          actors: { runTask: runTaskInEngine(credentials) },
          actions: { commandServer: (_, { payload, command }) => payload.kind === 'serverJob' && tellServerJob(payload, command) },
        }),
      },
      actions: {
        forgetTask: (_, { id, payload }) =>
          payload.kind === 'serverJob' ? forgetServerJob(payload.jobId) : void transferEngine.forget(id, apiAccess(credentials(), i18n.locale)),
        applyPartsPerUpload: (_, { value }) => setPartsPerUpload(value),
      },
    }),
    { input: { partsPerUpload: partsPerUpload() }, inspect },
  );
  manager.start();
  whenSignedIn(auth, () => {
    void transferEngine.journalTasks().then(
      (tasks) => manager.send({ type: 'tasks.restore', tasks: tasks.sort((a, b) => a.queuedAt - b.queuedAt).map(taskFromJournal) }),
      () => undefined,
    );
    void restoreServerJobs().then((tasks) => manager.send({ type: 'tasks.restore', tasks }), () => undefined);
  });
  return manager;
}

export type TaskManager = ReturnType<typeof createTaskManager>;
