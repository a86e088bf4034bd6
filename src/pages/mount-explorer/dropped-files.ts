/** A file to upload and, for files from a folder, its path inside what was dropped or picked. */
export interface PickedFile {
  file: File;
  relativePath?: string;
}

/** Files picked with a folder input carry their path in `webkitRelativePath`. */
export function pickedFiles(list: FileList | null): PickedFile[] {
  return [...(list ?? [])].map((file) => (file.webkitRelativePath ? { file, relativePath: file.webkitRelativePath } : { file }));
}

const fileOf = (entry: FileSystemFileEntry) => new Promise<File>((resolve, reject) => entry.file(resolve, reject));

/** A folder reader hands out its entries in batches until one comes back empty. */
async function entriesOf(folder: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = folder.createReader();
  const all: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}

async function walk(entry: FileSystemEntry, prefix: string, into: PickedFile[]): Promise<void> {
  if (entry.isFile) {
    const file = await fileOf(entry as FileSystemFileEntry);
    into.push(prefix ? { file, relativePath: `${prefix}${file.name}` } : { file });
    return;
  }
  for (const child of await entriesOf(entry as FileSystemDirectoryEntry)) await walk(child, `${prefix}${entry.name}/`, into);
}

/** What was dropped: files as they are, folders walked with their structure. */
export async function droppedFiles(transfer: DataTransfer): Promise<PickedFile[]> {
  // Entries must be taken before the first await: the drop's data is gone once the event handler returns.
  const entries = [...transfer.items].map((item) => item.webkitGetAsEntry?.()).filter((entry): entry is FileSystemEntry => Boolean(entry));
  if (entries.length === 0) return pickedFiles(transfer.files);
  const files: PickedFile[] = [];
  for (const entry of entries) await walk(entry, '', files);
  return files;
}
