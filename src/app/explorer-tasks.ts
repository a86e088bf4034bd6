import {
  isRetryable,
  policyFor,
  type BatchFile,
  type ConflictResolution,
  type ExplorerTaskPayload,
  type FsCopyItem,
  type FsItemsResult,
  type ZipDestination,
} from '../../contract/transfer';
import type { TaskInput } from '../../machines/task.machine';

/**
 * The tasks the mount explorer adds to the task manager: it only builds these and sends `tasks.add`; the runner
 * (src/app/tasks.ts) hands them to the transfer engine.
 */

const newTaskId = () => crypto.randomUUID();

/**
 * The task of files picked or dropped together into `folder`: one file alone is a plain upload; several are one
 * batch (`label` names it), whose files keep a dropped or picked folder's relative paths.
 */
export function fsUploadTask(folder: string, files: { file: File; relativePath?: string }[], label: string): TaskInput {
  const [only] = files;
  if (files.length === 1 && only) {
    const { file, relativePath } = only;
    return { id: newTaskId(), type: 'upload', label: relativePath ?? file.name, payload: { kind: 'fsUpload', file, folder, ...(relativePath && { relativePath }) } };
  }
  const batch: BatchFile[] = files.map(({ file, relativePath }) => ({ file, relativePath: relativePath ?? file.name }));
  const fromFolder = batch.some((entry) => entry.relativePath.includes('/'));
  return { id: newTaskId(), type: 'upload', label, payload: { kind: 'fsBatchUpload', files: batch, folder, count: batch.length, fromFolder } satisfies ExplorerTaskPayload };
}

/** The task of a folder picked as a handle (File System Access API): one batch, walked by the transfer worker. */
export function fsDirectoryUploadTask(folder: string, directory: FileSystemDirectoryHandle, label: string): TaskInput {
  return { id: newTaskId(), type: 'upload', label, payload: { kind: 'fsBatchUpload', directory, folder, count: 0, fromFolder: true } satisfies ExplorerTaskPayload };
}

/** The mount a path is in: its first segment. */
const mountOf = (path: string) => path.split('/').find(Boolean) ?? '';

/** Whether any source is in another mount than the target (a server job's work, not the storage's own copy). */
export const crossesMounts = (sources: string[], target: string) => sources.some((source) => mountOf(source) !== mountOf(target));

/** A copy or a move of mount paths: a name taken in the target is asked about, never written over unasked. */
export function fsCopyTask(label: string, items: FsCopyItem[], operation: 'copy' | 'move'): TaskInput {
  return { id: newTaskId(), type: operation, label, payload: { kind: 'fsCopy', items, operation } satisfies ExplorerTaskPayload };
}

export function fsDeleteTask(label: string, paths: string[]): TaskInput {
  return { id: newTaskId(), type: 'delete', label, payload: { kind: 'fsDelete', paths } satisfies ExplorerTaskPayload };
}

export function fsDownloadTask(name: string, paths: string[], saveTo: ZipDestination): TaskInput {
  return { id: newTaskId(), type: 'download', label: name, payload: { kind: 'fsDownload', paths, name, saveTo } satisfies ExplorerTaskPayload };
}

/**
 * What the next run of a copy or move does: the items a retry may mend (as the first run sent them) and, once the
 * user decided, the conflicts with their choice; the first run sends every item and asks about taken names.
 */
export function copyRunItems(items: FsCopyItem[], previous: FsItemsResult | undefined, resolution: ConflictResolution | undefined): FsCopyItem[] {
  if (!previous) return items.map((item) => ({ ...item, onConflict: 'fail' }));
  const retried = failedCopyItems(items, previous.failed.filter(({ error }) => isRetryable(error))).map((item) => ({ ...item, onConflict: 'fail' as const }));
  const decided = resolution
    ? resolution.conflicts.flatMap((conflict) => failedCopyItems(items, [conflict]).map((item) => ({ ...item, onConflict: policyFor(resolution.decision, conflict) })))
    : [];
  return [...retried, ...decided];
}

/**
 * The copies a retry makes: one per file that failed (the engine names failures by source file), each to the same
 * place as the first run sent it. A file of a copied folder becomes a copy of its own, into the folder's copy.
 */
export function failedCopyItems(items: FsCopyItem[], failed: { path: string }[]): FsCopyItem[] {
  const bare = (path: string) => path.replace(/\/$/, '');
  return failed.flatMap(({ path }) => {
    const item = items.find((candidate) => bare(candidate.sourcePath) === bare(path)) ?? items.find((candidate) => path.startsWith(`${bare(candidate.sourcePath)}/`));
    if (!item) return [];
    if (bare(item.sourcePath) === bare(path)) return [item];
    // A target ending in `/` is the folder the source went into by its own name; otherwise the copy's own path.
    const source = bare(item.sourcePath);
    const folderCopy = item.targetPath.endsWith('/') ? `${item.targetPath}${source.slice(source.lastIndexOf('/') + 1)}` : bare(item.targetPath);
    return [{ sourcePath: path, targetPath: `${folderCopy}${path.slice(source.length)}` }];
  });
}
