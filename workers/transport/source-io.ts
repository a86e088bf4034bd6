import { TransferFailure } from '../engine/failure';

/** What a read asks for: a signed download URL, a byte range of it (`[from, to)`), and the size its answer must have. */
export interface SourceRead {
  url: string;
  range?: readonly [number, number];
  /** Anything but exactly this many bytes is an error (not checked when absent). */
  size?: number;
}

/**
 * A source's bytes from a signed download URL (one file's, a range of it, or a read group's) as a blob: in the
 * browser's blob storage, not a heap, and no byte passes through a script. Past the HTTP cache: the bytes are read
 * once, and Chromium would otherwise write every one of them into its cache too (file answers may be stored, to be
 * revalidated). Rejects with a TransferFailure.
 */
export async function readSource({ url, range, size }: SourceRead, signal: AbortSignal): Promise<Blob> {
  let response: Response;
  try {
    response = await fetch(url, { signal, cache: 'no-store', ...(range && { headers: { Range: `bytes=${range[0]}-${range[1] - 1}` } }) });
  } catch {
    throw new TransferFailure({ code: signal.aborted ? 'cancelled' : 'network' });
  }
  if (!response.ok || !response.body) throw new TransferFailure({ code: 'upload_failed', status: response.status, serverMessage: 'download' });
  let bytes: Blob;
  try {
    bytes = await response.blob();
  } catch {
    throw new TransferFailure({ code: signal.aborted ? 'cancelled' : 'network' });
  }
  if (size !== undefined && bytes.size !== size) throw new TransferFailure({ code: 'upload_failed', serverMessage: 'download size' });
  return bytes;
}
