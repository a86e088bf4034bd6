import type { FsCopyItem, FsZipDownload } from '../../contract/transfer';
import type { TaskInput } from '../../machines/task.machine';

/**
 * What the mount explorer's tasks carry to their runner (src/app/tasks.ts), which hands them to the transfer
 * engine. The explorer only builds these and sends `tasks.add`; it never talks to the engine itself.
 */
export type ExplorerTaskPayload =
  /** `file` is absent after a reload until the user picks it again; `resume` continues the journal's upload. */
  | { kind: 'fsUpload'; file?: File; folder: string; relativePath?: string; resume?: boolean }
  | { kind: 'fsCopy'; items: FsCopyItem[]; skipExisting: boolean }
  | { kind: 'fsDelete'; paths: string[] }
  | { kind: 'fsDownload'; paths: string[]; name: string; sink: FsZipDownload['sink'] };

export const isExplorerPayload = (payload: unknown): payload is ExplorerTaskPayload =>
  typeof payload === 'object' && payload !== null && typeof (payload as { kind?: unknown }).kind === 'string';

const newTaskId = () => crypto.randomUUID();

/** One upload task per file; a dropped folder's files keep their relative paths. */
export function fsUploadTasks(folder: string, files: { file: File; relativePath?: string }[]): TaskInput[] {
  return files.map(({ file, relativePath }) => ({
    id: newTaskId(),
    type: 'upload',
    label: relativePath ?? file.name,
    payload: { kind: 'fsUpload', file, folder, ...(relativePath && { relativePath }) } satisfies ExplorerTaskPayload,
  }));
}

export function fsCopyTask(label: string, items: FsCopyItem[], skipExisting: boolean): TaskInput {
  return { id: newTaskId(), type: 'copy', label, payload: { kind: 'fsCopy', items, skipExisting } satisfies ExplorerTaskPayload };
}

export function fsDeleteTask(label: string, paths: string[]): TaskInput {
  return { id: newTaskId(), type: 'delete', label, payload: { kind: 'fsDelete', paths } satisfies ExplorerTaskPayload };
}

export function fsDownloadTask(name: string, paths: string[], sink: FsZipDownload['sink']): TaskInput {
  return { id: newTaskId(), type: 'download', label: name, payload: { kind: 'fsDownload', paths, name, sink } satisfies ExplorerTaskPayload };
}
