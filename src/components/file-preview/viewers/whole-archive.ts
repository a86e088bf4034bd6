import { Archive } from 'libarchive.js';
import type { CompressedFile } from 'libarchive.js/dist/build/compiled/compressed-file';
// Vite builds libarchive's worker as an asset of the app, with its wasm beside it: nothing comes from elsewhere.
import LibarchiveWorker from 'libarchive.js/dist/worker-bundle.js?worker';
import type { OpenedArchive } from './archive-reader';
import { ARCHIVE_MAX_BYTES, fetchBytes } from './fetch-bytes';

/** 7z and tar(.gz) have no index to read apart: the whole file is downloaded (up to a limit) and read by libarchive. */
export async function openWholeArchive(url: string, filename: string, signal: AbortSignal): Promise<OpenedArchive> {
  const bytes = await fetchBytes(url, ARCHIVE_MAX_BYTES, signal);
  Archive.init({ getWorker: () => new LibarchiveWorker() });
  const archive = await Archive.open(new File([bytes], filename));
  const files = (await archive.getFilesArray()) as { file: CompressedFile; path: string }[];
  return {
    entries: files.map(({ file, path }) => ({
      path: `${path}${file.name}`,
      size: file.size,
      encrypted: false,
      read: () => file.extract() as Promise<File>,
    })),
    close: () => void archive.close(),
  };
}
