import * as Comlink from 'comlink';
import type { FileShare } from '../../contract/files';
import type { ExpenseReceipt } from '../../contract/expenses';
import type { FileRequestUpload } from '../../contract/file-requests';
import type { FsUploadResult } from '../../contract/fs';
import {
  concurrencyFor,
  DEFAULT_CONCURRENCY,
  PARTS_PER_UPLOAD_CHOICES,
  type ApiAccess,
  type BatchFile,
  type EngineEvent,
  type FileShareUpload,
  type FsBatchUpload,
  type ConflictResolution,
  type FsCopy,
  type FsDelete,
  type FsDirectoryUpload,
  type FsFileUpload,
  type FsItemsResult,
  type FsZipDownload,
  type ItemsTaskRecord,
  type JournalTask,
  type ShareBatchResult,
  type ShareBatchUpload,
  type ReceiptUpload,
  type RequestFileUpload,
  type UrlShareUpload,
} from '../../contract/transfer';
import type { TransferEngine } from '../../workers/engine/engine';
import { authorizationOf, type Credentials } from './api/client';
import { backendBaseUrl } from './backend-url';
import { localStore, STORAGE_KEYS } from './storage';

let engine: Comlink.Remote<TransferEngine> | undefined;

/** The transfer engine in its Web Worker, started on first use; src reaches the worker only through here. */
function remote(): Comlink.Remote<TransferEngine> {
  if (!engine) {
    engine = Comlink.wrap<TransferEngine>(
      new Worker(new URL('../../workers/transfer.worker.ts', import.meta.url), { type: 'module', name: 'transfer-engine' }),
    );
    void engine.configure(concurrencyFor(partsPerUpload()));
  }
  return engine;
}

/** This browser's parts in flight per upload: its saved choice, else the default. */
export function partsPerUpload(): number {
  const saved = Number(localStore.get(STORAGE_KEYS.partsPerUpload));
  return (PARTS_PER_UPLOAD_CHOICES as readonly number[]).includes(saved) ? saved : DEFAULT_CONCURRENCY.perUpload;
}

/** Saves the choice and applies it to the engine at once (to parts granted from now on, running uploads too). */
export function setPartsPerUpload(value: number) {
  localStore.set(STORAGE_KEYS.partsPerUpload, String(value));
  if (engine) void engine.configure(concurrencyFor(value));
}

export function apiAccess(credentials: Credentials, language: string): ApiAccess {
  const authorization = authorizationOf(credentials);
  return { baseUrl: backendBaseUrl(), language, ...(authorization && { authorization }) };
}

/** The page's main thread looks at picked files for at most this long in one go. */
const STAGE_SLICE_MS = 25;

/**
 * Hands a batch's files to the worker a slice at a time. Chromium looks each picked file up (its size and date) the
 * first time it is touched, synchronously, about 0.4 ms a file: sent at once, 10,000 files would hold the page for
 * seconds. Each slice is looked up within STAGE_SLICE_MS, then sent (cheap once looked up), and the page is free
 * while the worker takes it.
 */
async function stageFiles(taskId: string, files: BatchFile[]): Promise<void> {
  for (let from = 0; from < files.length; ) {
    const started = performance.now();
    let to = from;
    while (to < files.length && (to === from || performance.now() - started < STAGE_SLICE_MS)) void files[to++]?.file.size;
    await remote().stageFiles(taskId, files.slice(from, to));
    from = to;
  }
}

export const transferEngine = {
  uploadFile: (command: FileShareUpload, onEvent: (event: EngineEvent) => void): Promise<FileShare> =>
    remote().uploadFile(command, Comlink.proxy(onEvent)),
  resumeFile: (
    taskId: string,
    file: File,
    api: ApiAccess,
    onEvent: (event: EngineEvent) => void,
    resolution?: ConflictResolution,
  ): Promise<FileShare | FsUploadResult | FsItemsResult | FileRequestUpload> => remote().resumeFile(taskId, file, api, Comlink.proxy(onEvent), resolution),
  uploadReceipt: (command: ReceiptUpload, onEvent: (event: EngineEvent) => void): Promise<ExpenseReceipt> =>
    remote().uploadReceipt(command, Comlink.proxy(onEvent)),
  uploadToRequest: (command: RequestFileUpload, onEvent: (event: EngineEvent) => void): Promise<FileRequestUpload> =>
    remote().uploadToRequest(command, Comlink.proxy(onEvent)),
  uploadUrl: (command: UrlShareUpload, onEvent: (event: EngineEvent) => void): Promise<FileShare> =>
    remote().uploadUrl(command, Comlink.proxy(onEvent)),
  resumeUrl: (taskId: string, api: ApiAccess, onEvent: (event: EngineEvent) => void): Promise<FileShare> =>
    remote().resumeUrl(taskId, api, Comlink.proxy(onEvent)),
  uploadToMount: (command: FsFileUpload, onEvent: (event: EngineEvent) => void): Promise<FsUploadResult | FsItemsResult> =>
    remote().uploadToMount(command, Comlink.proxy(onEvent)),
  uploadBatchToMount: async (command: FsBatchUpload, onEvent: (event: EngineEvent) => void): Promise<FsItemsResult> => {
    await stageFiles(command.taskId, command.files);
    return remote().uploadBatchToMount({ ...command, files: [] }, Comlink.proxy(onEvent));
  },
  uploadDirectoryToMount: (command: FsDirectoryUpload, onEvent: (event: EngineEvent) => void): Promise<FsItemsResult> =>
    remote().uploadDirectoryToMount(command, Comlink.proxy(onEvent)),
  resumeBatch: async (taskId: string, files: BatchFile[], api: ApiAccess, onEvent: (event: EngineEvent) => void, resolution?: ConflictResolution): Promise<FsItemsResult> => {
    await stageFiles(taskId, files);
    return remote().resumeBatch(taskId, [], api, Comlink.proxy(onEvent), resolution);
  },
  uploadShareBatch: async (command: ShareBatchUpload, onEvent: (event: EngineEvent) => void): Promise<ShareBatchResult> => {
    await stageFiles(command.taskId, command.files);
    return remote().uploadShareBatch({ ...command, files: [] }, Comlink.proxy(onEvent));
  },
  resumeShareBatch: async (taskId: string, files: BatchFile[], api: ApiAccess, onEvent: (event: EngineEvent) => void): Promise<ShareBatchResult> => {
    await stageFiles(taskId, files);
    return remote().resumeShareBatch(taskId, [], api, Comlink.proxy(onEvent));
  },
  copyInMounts: (command: FsCopy, onEvent: (event: EngineEvent) => void, record: ItemsTaskRecord): Promise<FsItemsResult> =>
    remote().copyInMounts(command, Comlink.proxy(onEvent), record),
  deleteInMounts: (command: FsDelete, onEvent: (event: EngineEvent) => void, record: ItemsTaskRecord): Promise<FsItemsResult> =>
    remote().deleteInMounts(command, Comlink.proxy(onEvent), record),
  /** A stream sink is handed over to the worker (transferred), not copied. */
  downloadZip: (command: FsZipDownload, onEvent: (event: EngineEvent) => void, record: ItemsTaskRecord): Promise<FsItemsResult> =>
    remote().downloadZip(command.sink.kind === 'stream' ? Comlink.transfer(command, [command.sink.writable]) : command, Comlink.proxy(onEvent), record),
  journalTasks: (): Promise<JournalTask[]> => remote().journalTasks(),
  cancel: (taskId: string) => remote().cancel(taskId),
  forget: (taskId: string, api: ApiAccess) => remote().forget(taskId, api),
};
