import { BlobWriter, HttpRangeReader, ZipReader } from '@zip.js/zip.js';

/** A file inside an archive, listed without being read. */
export interface ArchiveEntry {
  path: string;
  /** Uncompressed. */
  size: number;
  encrypted: boolean;
  read(): Promise<Blob>;
}

export interface OpenedArchive {
  entries: ArchiveEntry[];
  close(): void;
}

/**
 * A zip over HTTP Range requests: its central directory (the list, at the end of the file) and then only the entry
 * opened. Decompression is the browser's own (DecompressionStream) on this thread: no worker made from a blob,
 * which the CSP refuses, and no wasm.
 */
export async function openZip(url: string): Promise<OpenedArchive> {
  const zip = new ZipReader(new HttpRangeReader(url), { useWebWorkers: false, useCompressionStream: true });
  const entries = await zip.getEntries();
  return {
    entries: entries.flatMap((entry) =>
      entry.directory ? [] : [{ path: entry.filename, size: entry.uncompressedSize, encrypted: entry.encrypted, read: () => entry.getData(new BlobWriter()) }],
    ),
    close: () => void zip.close(),
  };
}
