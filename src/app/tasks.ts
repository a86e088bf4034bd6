import { i18n } from '@lingui/core';
import { createActor, fromCallback, type Actor, type ActorOptions, type AnyActorLogic } from 'xstate';
import { isTransferError, type ApiAccess, type EngineEvent, type FsItemsResult, type JournalTask, type ShareOptions, type TransferError } from '../../contract/transfer';
import type { authMachine, StoredCredentials } from '../../machines/auth.machine';
import { taskManagerMachine } from '../../machines/task-manager.machine';
import { taskMachine, type RestoredStatus, type TaskEvent, type TaskInput } from '../../machines/task.machine';
import { downloadBlob } from '../lib/download';
import { apiAccess, partsPerUpload, setPartsPerUpload, transferEngine } from '../lib/engine-client';
import { whenSignedIn } from './actors';
import { isExplorerPayload, type ExplorerTaskPayload } from './explorer-tasks';

/** What an upload task carries: the file (absent after a reload until picked again) or a URL, and how to share it. */
export interface UploadPayload {
  file?: File;
  url?: string;
  /** For URL uploads: the name to give the file. */
  filename?: string;
  mimetype: string;
  storageConfigId?: string;
  options: ShareOptions;
  /** Continue the journal's upload rather than start a new one. */
  resume?: boolean;
}

/**
 * The real runner of the task machine: hands the task to the transfer engine in the worker and relays its
 * events. Stopping the runner (cancel, or leaving the running state) cancels the task in the engine.
 */
const runTaskInEngine = (credentials: () => StoredCredentials) =>
  fromCallback<TaskEvent, Omit<TaskInput, 'restored'>>(({ input, sendBack }) => {
    let finished = false;
    const finish = (event: TaskEvent) => {
      finished = true;
      sendBack(event);
    };
    const payload = input.payload as UploadPayload;
    const api = apiAccess(credentials(), i18n.locale);
    // The engine's events name their task; the task's own actor needs no name.
    const relay = ({ taskId: _taskId, ...event }: EngineEvent) => sendBack(event);
    const config = payload.storageConfigId ? { storageConfigId: payload.storageConfigId } : {};
    let run: Promise<unknown>;
    if (isExplorerPayload(input.payload)) {
      run = runExplorerTask(input.id, input.payload, api, relay);
    } else if (input.type === 'upload' && payload.url) {
      run = payload.resume
        ? transferEngine.resumeUrl(input.id, api, relay)
        : transferEngine.uploadUrl(
            { taskId: input.id, api, url: payload.url, ...(payload.filename && { filename: payload.filename }), ...config, options: payload.options },
            relay,
          );
    } else if (input.type === 'upload' && payload.file) {
      run = payload.resume
        ? transferEngine.resumeFile(input.id, payload.file, api, relay)
        : transferEngine.uploadFile(
            { taskId: input.id, api, file: payload.file, mimetype: payload.mimetype, ...config, options: payload.options },
            relay,
          );
    } else {
      finish({ type: 'engine.failed', error: { code: 'unknown' } });
      return () => {};
    }
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

/** How each copy or delete task last ended, so that a retry runs only what failed. */
const lastResults = new Map<string, FsItemsResult>();

/** What a retry still has to do: the failed items of the last run, or all of them the first time. */
function stillToDo<T>(taskId: string, all: T[], pathOf: (item: T) => string): T[] {
  const last = lastResults.get(taskId);
  if (!last) return all;
  const failed = new Set(last.failed.map((item) => item.path));
  return all.filter((item) => failed.has(pathOf(item)));
}

/**
 * The final counts, sent before the task is done: the engine's own last count travels on another message
 * channel than its answer and may arrive after it, when the task no longer listens.
 */
function withFinalCounts<T extends FsItemsResult>(relay: (event: EngineEvent) => void, taskId: string, run: Promise<T>): Promise<T> {
  return run.then((result) => {
    const counts = { success: result.succeeded.length, skipped: result.skipped.length, failed: result.failed.length };
    relay({ type: 'engine.item', taskId, currentFile: result.failed.at(-1)?.path ?? result.succeeded.at(-1) ?? '', counts });
    return result;
  });
}

/** Adds a run's result to what earlier runs of the task did. */
function remember(taskId: string, result: FsItemsResult): FsItemsResult {
  const last = lastResults.get(taskId);
  const merged = last ? { succeeded: [...last.succeeded, ...result.succeeded], skipped: [...last.skipped, ...result.skipped], failed: result.failed } : result;
  lastResults.set(taskId, merged);
  return merged;
}

/** The mount explorer's tasks, each handed to its engine pipeline. */
function runExplorerTask(taskId: string, payload: ExplorerTaskPayload, api: ApiAccess, relay: (event: EngineEvent) => void): Promise<unknown> {
  switch (payload.kind) {
    case 'fsUpload':
      if (!payload.file) return Promise.reject({ code: 'unknown' } satisfies TransferError);
      return payload.resume
        ? transferEngine.resumeFile(taskId, payload.file, api, relay)
        : transferEngine.uploadToMount({ taskId, api, file: payload.file, folder: payload.folder, ...(payload.relativePath && { relativePath: payload.relativePath }) }, relay);
    case 'fsCopy': {
      const items = stillToDo(taskId, payload.items, (item) => item.sourcePath);
      return withFinalCounts(relay, taskId, transferEngine.copyInMounts({ taskId, api, items, skipExisting: payload.skipExisting }, relay).then((result) => remember(taskId, result)));
    }
    case 'fsDelete': {
      const paths = stillToDo(taskId, payload.paths, (path) => path);
      return withFinalCounts(relay, taskId, transferEngine.deleteInMounts({ taskId, api, paths }, relay).then((result) => remember(taskId, result)));
    }
    case 'fsDownload':
      return withFinalCounts(
        relay,
        taskId,
        transferEngine.downloadZip({ taskId, api, paths: payload.paths, name: payload.name, sink: payload.sink }, relay).then(({ blob, ...result }) => {
          // Without the File System Access API the zip comes back whole: save it now.
          if (blob) downloadBlob(blob, payload.name);
          return result;
        }),
      );
  }
}

/** A journal entry as a task of the list: finished ones as they ended, unfinished uploads waiting for their file. */
export function taskFromJournal(task: JournalTask): TaskInput {
  const loaded = Object.values(task.parts).reduce((sum, part) => sum + part.size, 0);
  // URL uploads resume by themselves; local files need the user to pick the file again.
  const status: RestoredStatus =
    task.status === 'completed' || task.status === 'failed' || task.status === 'cancelled'
      ? task.status
      : task.kind === 'url'
        ? 'running'
        : 'awaitingFile';
  const payload: UploadPayload | ExplorerTaskPayload =
    task.kind === 'fs'
      ? { kind: 'fsUpload', folder: task.fsFolder ?? '/', resume: true }
      : {
          ...(task.url && { url: task.url }),
          mimetype: task.mimetype,
          options: task.options,
          ...(task.storageConfigId && { storageConfigId: task.storageConfigId }),
          resume: true,
        };
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
      actors: { task: taskMachine.provide({ actors: { runTask: runTaskInEngine(credentials) } }) },
      actions: {
        forgetTask: (_, { id }) => void transferEngine.forget(id, apiAccess(credentials(), i18n.locale)),
        applyPartsPerUpload: (_, { value }) => setPartsPerUpload(value),
      },
    }),
    { input: { partsPerUpload: partsPerUpload() }, inspect },
  );
  manager.start();
  whenSignedIn(auth, () =>
    void transferEngine.journalTasks().then(
      (tasks) => manager.send({ type: 'tasks.restore', tasks: tasks.sort((a, b) => a.queuedAt - b.queuedAt).map(taskFromJournal) }),
      () => undefined,
    ),
  );
  return manager;
}

export type TaskManager = ReturnType<typeof createTaskManager>;
