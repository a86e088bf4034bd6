import type { BatchFile } from '../../contract/transfer';
import { cancelled } from '../engine/failure';

/**
 * Every file below a folder the user picked (File System Access API), walked here in the worker so that the page's
 * main thread never lists or looks up thousands of files. Paths are relative to the folder's parent, as a folder
 * input's `webkitRelativePath` is (`photos/2024/a.jpg`), so that picking it again with the input matches them.
 */
export async function directoryFiles(directory: FileSystemDirectoryHandle, signal: AbortSignal): Promise<BatchFile[]> {
  const files: BatchFile[] = [];
  const walk = async (folder: FileSystemDirectoryHandle, prefix: string): Promise<void> => {
    for await (const entry of folder.values()) {
      if (signal.aborted) throw cancelled();
      if (entry.kind === 'file') files.push({ file: await (entry as FileSystemFileHandle).getFile(), relativePath: `${prefix}${entry.name}` });
      else await walk(entry as FileSystemDirectoryHandle, `${prefix}${entry.name}/`);
    }
  };
  await walk(directory, `${directory.name}/`);
  return files;
}
