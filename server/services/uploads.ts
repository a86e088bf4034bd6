import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import { uploadMimeType, type FileShare } from '../../contract/files';
import type { AppDeps, Principal } from '../context';
import { ApiError, badInput } from '../errors';
import { UnsafeKeyError } from '../storage/driver';
import { cleanContentType } from '../storage/http-headers';
import { buildObjectKey, cleanFilename } from '../storage/keys';
import { reasonOf } from '../storage/reason';
import { driverFor } from '../storage/registry';
import {
  assertFits,
  byteBudget,
  recordStoredFile,
  shareOptionsFromForm,
  uploadLimits,
  type StoredObject,
} from './files';
import { assertSlugFree } from './slugs';
import { resolveUploadConfig } from './storage-configs';

/** Fields that choose where the bytes go: they must arrive before the file. */
const PLACEMENT_FIELDS = ['s3_config_id', 'path'];

class OverBudget extends Error {}

/**
 * `POST /api/upload`: the multipart form is parsed as it arrives and the file part streams straight into
 * storage, never held whole. Fields before the file pick the storage; share options may come before or after.
 * Over the max upload size or the quota, the stream into storage stops, the partial object is removed and
 * the rest of the file is read only to count it (so the 413 says how big it was, and the client gets an answer
 * instead of a reset connection).
 */
export async function receiveFormUpload(deps: AppDeps, principal: Principal, request: Request): Promise<FileShare> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(contentType) || !request.body) throw new ApiError(400, 'upload_not_multipart', {}, { field: 'file', issue: 'not_multipart' });

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      defParamCharset: 'utf8',
      limits: { files: 1, fields: 30, parts: 40, fieldSize: 64 * 1024 },
    });
  } catch {
    throw new ApiError(400, 'upload_not_multipart', {}, { field: 'file', issue: 'not_multipart' });
  }

  const fields: Record<string, string> = {};
  let fileTask: Promise<StoredObject> | undefined;
  let problem: Error | undefined;
  const fail = (error: Error) => {
    problem ??= error;
  };

  parser.on('field', (name, value) => {
    if (fileTask && PLACEMENT_FIELDS.includes(name)) fail(new ApiError(400, 'upload_field_after_file', { field: name }, { field: name, issue: 'after_file' }));
    if (!(name in fields)) fields[name] = value;
  });
  parser.on('file', (_name, stream, info) => {
    if (fileTask || problem) {
      stream.resume();
      return;
    }
    fileTask = storeFilePart(deps, principal, fields, stream, info);
    // Keep the rejection for later (the form must be read to its end first); never unhandled.
    fileTask.catch(() => undefined);
  });
  parser.on('filesLimit', () => fail(badInput('file', 'only_one_file')));
  parser.on('fieldsLimit', () => fail(badInput('body', 'too_many_fields')));
  parser.on('partsLimit', () => fail(badInput('body', 'too_many_parts')));

  try {
    await pipeline(Readable.fromWeb(request.body as WebReadableStream<Uint8Array>), parser);
  } catch (error) {
    const stored = await fileTask?.catch(() => undefined);
    if (stored) await driverFor(deps, stored.config).delete(stored.key).catch(() => undefined);
    throw error instanceof ApiError ? error : badInput('body', 'malformed_multipart');
  }

  if (!fileTask) throw problem ?? new ApiError(400, 'upload_no_file', {}, { field: 'file', issue: 'required' });
  const stored = await fileTask;
  try {
    if (problem) throw problem;
    return await recordStoredFile(deps, principal, stored, shareOptionsFromForm(fields));
  } catch (error) {
    await driverFor(deps, stored.config).delete(stored.key).catch(() => undefined);
    throw error;
  }
}

/** Everything of one file part: checks that need no bytes first, then the bytes into storage. */
async function storeFilePart(
  deps: AppDeps,
  principal: Principal,
  fields: Record<string, string>,
  stream: Readable,
  info: busboy.FileInfo,
): Promise<StoredObject> {
  let budgetExceeded = false;
  let seen = 0;
  try {
    const config = await resolveUploadConfig(deps, principal, fields.s3_config_id || undefined);
    const limits = await uploadLimits(deps, config);
    // Refuse early what can be refused early: a bad or taken slug, a bad folder.
    const options = shareOptionsFromForm(fields);
    if (options.slug !== undefined) await assertSlugFree(deps.db, 'files', options.slug);
    const filename = cleanFilename(info.filename);
    const mimetype = cleanContentType(fields.mimetype || uploadMimeType(filename, info.mimeType === 'application/octet-stream' ? '' : info.mimeType));
    const key = buildObjectKey(config.default_folder, fields.path, filename);
    const budget = byteBudget(limits);

    const sink = new PassThrough();
    // The driver may attach to the sink after bytes (and a refusal) arrived; it still sees the error then.
    sink.on('error', () => undefined);
    let sinkOpen = true;
    const discardRest = () => {
      sinkOpen = false;
      stream.resume();
    };
    sink.on('close', () => {
      if (sinkOpen) discardRest();
    });
    stream.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (!sinkOpen) return;
      if (seen > budget) {
        budgetExceeded = true;
        sink.destroy(new OverBudget());
        discardRest();
        return;
      }
      if (!sink.write(chunk)) {
        stream.pause();
        sink.once('drain', () => stream.resume());
      }
    });
    const ended = new Promise<void>((resolve, reject) => {
      stream.on('end', () => {
        if (sinkOpen) {
          sinkOpen = false;
          sink.end();
        }
        resolve();
      });
      stream.on('error', (error) => {
        sink.destroy(error);
        reject(error);
      });
    });

    const driver = driverFor(deps, config);
    const put = driver.put(key, sink, { contentType: mimetype });
    const [outcome] = await Promise.allSettled([put, ended]);
    await ended;
    if (budgetExceeded) {
      await driver.delete(key).catch(() => undefined);
      assertFits(seen, limits);
      throw new ApiError(413, 'body_too_large', { limit: String(budget) });
    }
    if (outcome.status === 'rejected') {
      if (outcome.reason instanceof UnsafeKeyError) throw badInput('path', 'invalid_path');
      throw new ApiError(502, 'storage_unavailable', { reason: reasonOf(outcome.reason) });
    }
    return { config, key, filename, mimetype, size: outcome.value.size, etag: outcome.value.etag };
  } catch (error) {
    // Whatever went wrong, the rest of the part is read (and dropped) so the form can end and be answered.
    stream.resume();
    throw error;
  }
}
