import { randomUUID } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import { ApiError, badInput } from '../errors';

export interface FormFile {
  stream: Readable;
  filename: string;
  /** As the client declared it (may be empty or generic). */
  mimeType: string;
}

export interface ReceiveFormOptions<T> {
  /**
   * Fields that decide where the bytes go. When all of them came before the file, it streams straight into
   * `store`; otherwise it is staged on disk and stored once the form has ended and every field is known.
   */
  placementFields: readonly string[];
  /** A folder for staged files (on the server's disk, never memory). */
  stagingDir: string;
  /** The most bytes a staged file may have: staging stops as soon as it passes them. */
  stagingLimit: number;
  /** The answer when a staged file passes the limit; `seen` counts all its bytes. */
  tooLarge(seen: number): Error;
  /** Puts the file where it belongs; it must read the stream to its end even when it refuses it. */
  store(fields: Record<string, string>, file: FormFile): Promise<T>;
  /** Undoes `store` when the form fails after it (a later field is invalid, the body breaks off). */
  discard(stored: T): Promise<void>;
}

const notMultipart = () => new ApiError(400, 'upload_not_multipart', {}, { field: 'file', issue: 'not_multipart' });

/** Counts bytes on their way to a staging file and fails past the limit. */
class Limit extends Transform {
  seen = 0;
  exceeded = false;
  constructor(private readonly limit: number) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null, data?: Buffer) => void) {
    this.seen += chunk.length;
    if (this.seen > this.limit) this.exceeded = true;
    // Past the limit the bytes are only counted: the 413 says how big the file was, and the form still ends.
    callback(null, this.exceeded ? undefined : chunk);
  }
}

/**
 * Reads a multipart form with one file part, fields in any order. Streamed file parts never sit whole in
 * memory; staged ones are written to `stagingDir` and removed whatever happens. On any failure after the file
 * was stored, `discard` removes it again, so a refused form leaves nothing behind.
 */
export async function receiveForm<T>(request: Request, options: ReceiveFormOptions<T>): Promise<{ fields: Record<string, string>; stored: T }> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(contentType) || !request.body) throw notMultipart();
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: { 'content-type': contentType }, defParamCharset: 'utf8', limits: { files: 1, fields: 30, parts: 40, fieldSize: 64 * 1024 } });
  } catch {
    throw notMultipart();
  }

  const fields: Record<string, string> = {};
  let streamed: Promise<T> | undefined;
  let staged: Promise<{ file: string; filename: string; mimeType: string; limit: Limit }> | undefined;
  let problem: Error | undefined;
  const fail = (error: Error) => {
    problem ??= error;
  };

  parser.on('field', (name, value) => {
    if (!(name in fields)) fields[name] = value;
  });
  parser.on('file', (_name, stream, info) => {
    if (streamed || staged || problem) {
      stream.resume();
      return;
    }
    const file = { stream, filename: info.filename ?? '', mimeType: info.mimeType };
    if (options.placementFields.every((field) => field in fields)) {
      streamed = options.store({ ...fields }, file);
      // Kept for later (the form must be read to its end first); never unhandled.
      streamed.catch(() => undefined);
      return;
    }
    staged = stage(stream, options).then((staging) => ({ ...staging, filename: info.filename ?? '', mimeType: info.mimeType }));
    staged.catch(() => undefined);
  });
  parser.on('filesLimit', () => fail(badInput('file', 'only_one_file')));
  parser.on('fieldsLimit', () => fail(badInput('body', 'too_many_fields')));
  parser.on('partsLimit', () => fail(badInput('body', 'too_many_parts')));

  try {
    await pipeline(Readable.fromWeb(request.body as WebReadableStream<Uint8Array>), parser);
  } catch (error) {
    const stored = await streamed?.catch(() => undefined);
    if (stored !== undefined) await options.discard(stored).catch(() => undefined);
    await staged?.then(({ file }) => rm(file, { force: true })).catch(() => undefined);
    throw error instanceof ApiError ? error : badInput('body', 'malformed_multipart');
  }

  if (staged) {
    const { file, filename, mimeType, limit } = await staged;
    let body: ReadStream | undefined;
    try {
      if (problem) throw problem;
      if (limit.exceeded) throw options.tooLarge(limit.seen);
      body = createReadStream(file);
      // A store that refuses before it reads (a path, a permission) leaves the stream unread: its error once the
      // file is removed below must not become an uncaught exception; a store that reads sees errors as it reads.
      body.on('error', () => undefined);
      streamed = options.store({ ...fields }, { stream: body, filename, mimeType });
      await streamed;
    } finally {
      body?.destroy();
      await rm(file, { force: true });
    }
  }
  if (!streamed) throw problem ?? new ApiError(400, 'upload_no_file', {}, { field: 'file', issue: 'required' });
  const stored = await streamed;
  if (problem) {
    await options.discard(stored).catch(() => undefined);
    throw problem;
  }
  return { fields, stored };
}

/** Writes a file part to a new staging file; the limit counts on past its end so the part is still read whole. */
async function stage(stream: Readable, options: Pick<ReceiveFormOptions<unknown>, 'stagingDir' | 'stagingLimit'>) {
  // A form that breaks off fails this stream, maybe before the pipeline below is attached to it.
  const broken = new Promise<never>((_resolve, reject) => stream.once('error', reject));
  broken.catch(() => undefined);
  await mkdir(options.stagingDir, { recursive: true });
  const file = join(options.stagingDir, `form-${randomUUID()}`);
  const limit = new Limit(options.stagingLimit);
  // Opened before the pipeline starts: a write stream opens lazily, and an open still pending when the form
  // fails would create the file after the removal below.
  const handle = await open(file, 'wx', 0o600);
  const piping = pipeline(stream, limit, handle.createWriteStream());
  try {
    await Promise.race([broken, piping]);
  } catch (error) {
    stream.resume();
    await piping.catch(() => undefined);
    await rm(file, { force: true });
    throw error;
  }
  return { file, limit };
}
