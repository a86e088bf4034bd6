import { makeZip } from 'client-zip';
import type { FsListing } from '../../contract/fs';
import type { ApiAccess, FsItemsResult, FsZipDownload } from '../../contract/transfer';
import { cancelled } from '../engine/failure';
import { ProgressMeter } from '../engine/progress';
import { callApi } from '../transport/api';
import type { Transport } from '../transport/http';
import { emptyItemsResult, itemReporter } from './fs-items';
import { fsBase } from './multipart-protocol';
import type { PipelineContext } from './presigned-upload';

interface ZipEntry {
  /** The mount path to read. */
  path: string;
  /** The name inside the zip: relative to the folder the selection was made in. */
  name: string;
  size: number;
  modified: string | null;
}

const parentOf = (path: string) => path.replace(/[^/]+\/?$/, '');

/** Every file below the selected paths, folders walked through `list`. */
async function* entriesOf(transport: Transport, api: ApiAccess, paths: string[], signal: AbortSignal): AsyncGenerator<ZipEntry> {
  for (const selected of paths) {
    const root = parentOf(selected);
    const stack = [selected];
    while (stack.length) {
      const path = stack.pop()!;
      if (!path.endsWith('/')) {
        const entry = await callApi<{ size: number; modified: string | null }>(transport, api, `${fsBase(api)}/get?path=${encodeURIComponent(path)}`, { method: 'GET', signal, failure: 'unknown' });
        yield { path, name: path.slice(root.length), size: entry.size, modified: entry.modified };
        continue;
      }
      const listing = await callApi<FsListing>(transport, api, `${fsBase(api)}/list?path=${encodeURIComponent(path)}`, { method: 'GET', signal, failure: 'unknown' });
      for (const item of [...listing.items].reverse()) {
        if (item.isDirectory) stack.push(item.path);
        else yield { path: item.path, name: item.path.slice(root.length), size: item.size, modified: item.modified };
      }
    }
  }
}

/**
 * Selected files and folders as one zip, streamed: each file is read from the server only when the zip reaches
 * it and passed through as it arrives into the sink (a file, or a download's stream), so memory holds a chunk,
 * not a file. A file that cannot be read is listed as failed and left out.
 */
export async function fsDownloadZip(command: FsZipDownload, context: PipelineContext): Promise<FsItemsResult> {
  const { taskId, api, signal } = { ...command, signal: context.signal };
  const result = emptyItemsResult();
  const entries: ZipEntry[] = [];
  for await (const entry of entriesOf(context.transport, api, command.paths, signal)) entries.push(entry);
  const report = itemReporter(taskId, context.emit, entries.length, result, { signal: context.signal });
  const meter = new ProgressMeter(entries.reduce((sum, entry) => sum + entry.size, 0), (progress) => context.emit({ type: 'engine.progress', taskId, progress }));
  let zipped = 0;

  async function* files() {
    for (const entry of entries) {
      report(entry.path);
      const headers: Record<string, string> = { 'Accept-Language': api.language };
      if (api.authorization) headers.Authorization = api.authorization;
      let response: Response;
      try {
        // Past the HTTP cache: each file is read once, into the zip, and would otherwise be written into the cache too.
        response = await context.transport.fetch(`${api.baseUrl}/api${fsBase(api)}/download?path=${encodeURIComponent(entry.path)}`, { headers, signal, cache: 'no-store' });
      } catch {
        if (signal.aborted) throw cancelled();
        result.failed.push({ path: entry.path, error: { code: 'network' } });
        continue;
      }
      if (!response.ok || !response.body) {
        result.failed.push({ path: entry.path, error: { code: 'unknown', status: response.status } });
        continue;
      }
      const counted = response.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            zipped += chunk.byteLength;
            meter.update(zipped);
            controller.enqueue(chunk);
          },
        }),
      );
      yield { name: entry.name, input: counted, size: entry.size, ...(entry.modified && { lastModified: new Date(entry.modified) }) };
      result.succeeded.push(entry.path);
    }
  }

  context.emit({ type: 'engine.stage', taskId, stage: 'uploading' });
  const zip = makeZip(files());
  const writable = command.sink.kind === 'file' ? await command.sink.handle.createWritable() : command.sink.writable;
  try {
    // A cancel aborts the sink too: a half-written file is discarded, a streamed download fails.
    await zip.pipeTo(writable, { signal });
  } catch (error) {
    if (signal.aborted) throw cancelled();
    throw error;
  }
  report(entries.at(-1)?.path ?? '', true);
  return result;
}
