import * as Comlink from 'comlink';
import type { FileShare } from '../../contract/files';
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
  type FsCopy,
  type FsDelete,
  type FsFileUpload,
  type FsItemsResult,
  type FsZipDownload,
  type ItemsTaskRecord,
  type JournalTask,
  type UrlShareUpload,
} from '../../contract/transfer';
import type { TransferEngine } from '../../workers/engine/engine';
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

export function apiAccess(credentials: { adminToken?: string; apiKey?: string }, language: string): ApiAccess {
  const authorization = credentials.adminToken
    ? `Bearer ${credentials.adminToken}`
    : credentials.apiKey
      ? `ApiKey ${credentials.apiKey}`
      : undefined;
  return { baseUrl: backendBaseUrl(), language, ...(authorization && { authorization }) };
}

export const transferEngine = {
  uploadFile: (command: FileShareUpload, onEvent: (event: EngineEvent) => void): Promise<FileShare> =>
    remote().uploadFile(command, Comlink.proxy(onEvent)),
  resumeFile: (taskId: string, file: File, api: ApiAccess, onEvent: (event: EngineEvent) => void): Promise<FileShare | FsUploadResult> =>
    remote().resumeFile(taskId, file, api, Comlink.proxy(onEvent)),
  uploadUrl: (command: UrlShareUpload, onEvent: (event: EngineEvent) => void): Promise<FileShare> =>
    remote().uploadUrl(command, Comlink.proxy(onEvent)),
  resumeUrl: (taskId: string, api: ApiAccess, onEvent: (event: EngineEvent) => void): Promise<FileShare> =>
    remote().resumeUrl(taskId, api, Comlink.proxy(onEvent)),
  uploadToMount: (command: FsFileUpload, onEvent: (event: EngineEvent) => void): Promise<FsUploadResult> =>
    remote().uploadToMount(command, Comlink.proxy(onEvent)),
  uploadBatchToMount: (command: FsBatchUpload, onEvent: (event: EngineEvent) => void): Promise<FsItemsResult> =>
    remote().uploadBatchToMount(command, Comlink.proxy(onEvent)),
  resumeBatch: (taskId: string, files: BatchFile[], api: ApiAccess, onEvent: (event: EngineEvent) => void): Promise<FsItemsResult> =>
    remote().resumeBatch(taskId, files, api, Comlink.proxy(onEvent)),
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
