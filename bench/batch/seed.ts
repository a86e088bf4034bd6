import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A seeded file: its path inside the seeded folder (`batch/sub-03/file-00042.txt`) and its size. */
export interface SeededFile {
  relativePath: string;
  size: number;
}

/** The folder's name, as `webkitRelativePath` starts with it in the browser and the Node client sends it too. */
export const FOLDER_NAME = 'batch';
const SUB_FOLDERS = 10;
const MIN_BYTES = 1024;
const MAX_BYTES = 4096;

const WORDS = ['clip', 'stash', 'folder', 'upload', 'batch', 'power', 'user', 'text', 'file', 'mount', 'local', 's3rver', 'bench'];

/** Text of exactly `size` bytes (ASCII), lines of words varying with `seed`. */
function textOf(size: number, seed: number): string {
  let text = '';
  for (let index = seed; text.length < size; index = (index * 1103515245 + 12345) >>> 0) {
    text += `${WORDS[index % WORDS.length]}${index % 9 === 0 ? '\n' : ' '}`;
  }
  return text.slice(0, size);
}

/**
 * Writes `count` small text files of mixed sizes (1–4 KiB, spread by a fixed sequence: the same for every run) into
 * `<root>/batch/sub-NN/` (10 sub-folders, the files dealt out in turn). Answers what it wrote.
 */
export function seedFolder(root: string, count: number): SeededFile[] {
  const files: SeededFile[] = [];
  const subFolders = Math.min(SUB_FOLDERS, count);
  for (let sub = 0; sub < subFolders; sub++) mkdirSync(join(root, FOLDER_NAME, `sub-${String(sub).padStart(2, '0')}`), { recursive: true });
  for (let index = 0; index < count; index++) {
    const size = MIN_BYTES + ((index * 2654435761) >>> 0) % (MAX_BYTES - MIN_BYTES + 1);
    const relativePath = `${FOLDER_NAME}/sub-${String(index % subFolders).padStart(2, '0')}/file-${String(index).padStart(5, '0')}.txt`;
    writeFileSync(join(root, relativePath), textOf(size, index + 1));
    files.push({ relativePath, size });
  }
  return files;
}
