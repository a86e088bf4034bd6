import * as Comlink from 'comlink';
import type { FileShare } from '../../contract/files';
import type { ApiAccess, EngineEvent, FileShareUpload, JournalTask, UrlShareUpload } from '../../contract/transfer';
import type { TransferEngine } from '../../workers/engine/engine';
import { backendBaseUrl } from './backend-url';

let engine: Comlink.Remote<TransferEngine> | undefined;

/** The transfer engine in its Web Worker, started on first use; src reaches the worker only through here. */
function remote(): Comlink.Remote<TransferEngine> {
  engine ??= Comlink.wrap<TransferEngine>(
    new Worker(new URL('../../workers/transfer.worker.ts', import.meta.url), { type: 'module', name: 'transfer-engine' }),
  );
  return engine;
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
  resumeFile: (taskId: string, file: File, api: ApiAccess, onEvent: (event: EngineEvent) => void): Promise<FileShare> =>
    remote().resumeFile(taskId, file, api, Comlink.proxy(onEvent)),
  uploadUrl: (command: UrlShareUpload, onEvent: (event: EngineEvent) => void): Promise<FileShare> =>
    remote().uploadUrl(command, Comlink.proxy(onEvent)),
  resumeUrl: (taskId: string, api: ApiAccess, onEvent: (event: EngineEvent) => void): Promise<FileShare> =>
    remote().resumeUrl(taskId, api, Comlink.proxy(onEvent)),
  journalTasks: (): Promise<JournalTask[]> => remote().journalTasks(),
  cancel: (taskId: string) => remote().cancel(taskId),
  forget: (taskId: string, api: ApiAccess) => remote().forget(taskId, api),
};
