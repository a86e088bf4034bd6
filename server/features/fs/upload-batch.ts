import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import * as v from 'valibot';
import { FS_UPLOAD_GROUP_MAX_FILES, fsConflictPolicySchema, type FsConflictPolicy, type FsUploadBatchResult } from '../../../contract/fs';
import type { AppDeps } from '../../context';
import { ApiError, badInput } from '../../errors';
import { translate, type Lang } from '../../i18n/messages';
import { uploadLimits, type UploadLimits } from '../storages/upload-limits';
import { visibleMounts } from '../mounts/mounts';
import { invalidateFolders } from './shared-directory-cache';
import { checkName, isWithin, nameOf, normalizePath, parentOf, type FsPath } from './paths';
import { resolveInMount, withInner, type FsCaller, type MountTarget } from './resolve';
import { batchErrorOf, storageError } from './storage-errors';
import { writeWithPolicy } from './free-names';
import { kindAt } from './writes';

/**
 * `POST /fs/upload-batch`: a group of (small) files into one mount folder with one request. The form is
 * `path` (the folder) first, optionally `onConflict` (for the files after it, until the next one; `replace` before
 * any), then per file `relativePath` (its path below the folder, sub-folders made as needed) and optionally
 * `mimetype`, immediately followed by the file part. Each file streams straight into storage through
 * writeFile, whole or not at all; one that fails is listed in `failed` and the next is still read and stored. Only
 * the form itself (not multipart, a file before `path` or without its `relativePath`, a broken body, too many parts)
 * fails the request with a 400, after the files stored before it: each of those is whole, and stays.
 */

/** Files being stored at once: the next file's checks overlap the previous one's last storage round trip. */
const STORE_AT_ONCE = 4;
/** Form parts read at most (the extra files of a too-large group are still answered, up to a point). */
const MAX_PARTS = FS_UPLOAD_GROUP_MAX_FILES * 6 + 16;

type Failure = FsUploadBatchResult['failed'][number];
type Outcome = { stored: FsUploadBatchResult['succeeded'][number] } | { failed: Failure };

const notMultipart = () => new ApiError(400, 'upload_not_multipart', {}, { field: 'file', issue: 'not_multipart' });

/** At most `max` pieces of work at once; the others wait in order. */
function limiter(max: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (active < max) active += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      // The slot passes straight to the next waiter, or is given back.
      const next = waiting.shift();
      if (next) next();
      else active -= 1;
    }
  };
}

/** The answer made for `key` before, or a new one (a promise: callers that come while it is being made share it). */
function remembered<T>(made: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
  let value = made.get(key);
  if (!value) {
    value = make();
    value.catch(() => undefined);
    made.set(key, value);
  }
  return value;
}

/**
 * A file's full path from the folder and its `relativePath`: `/`-separated (`\` too, as everywhere in the mount
 * file system), empty and `.` segments dropped; `..` and invalid names refused, never resolved.
 */
export function filePathOf(folder: FsPath, relativePath: string): FsPath {
  const segments = relativePath.split(/[/\\]/).filter((segment) => segment !== '' && segment !== '.');
  if (segments.length === 0) throw badInput('relativePath', 'required');
  if (segments.includes('..')) throw badInput('relativePath', 'invalid_path');
  for (const segment of segments) checkName(segment, 'relativePath');
  return normalizePath(`${folder.text}/${segments.join('/')}`, 'relativePath');
}

/** The per-request state: folders resolved once each, limits read once per storage config, listings dropped once. */
class UploadGroup {
  private readonly outcomes: Promise<Outcome>[] = [];
  private readonly atOnce = limiter(STORE_AT_ONCE);
  /** Folders written to, per mount (paths inside the mount): their listings are dropped when the group ends. */
  private readonly touched = new Map<string, Set<string>>();
  private mountPoints: Promise<Set<string>> | undefined;
  /** Files being stored, by path: a file waits for those on its own path or in its way (see store). */
  private readonly storing = new Map<number, { path: FsPath; done: Promise<unknown> }>();

  constructor(
    private readonly deps: AppDeps,
    private readonly caller: FsCaller,
    private readonly lang: Lang,
  ) {}

  get files(): number {
    return this.outcomes.length;
  }

  private readonly folders = new Map<string, Promise<MountTarget>>();
  private readonly limits = new Map<string, Promise<UploadLimits>>();

  /** The folder a file goes in, checked as fileInFolder checks it (inside the caller's base path, not a file): once. */
  private folderOf(path: FsPath): Promise<MountTarget> {
    return remembered(this.folders, path.text, async () => {
      const folder = await resolveInMount(this.deps, this.caller, path);
      if ((await kindAt(folder)) === 'file') throw new ApiError(400, 'fs_not_a_folder', { path: path.text });
      return folder;
    });
  }

  /** The max upload size and the quota of a storage config, read once per request. */
  private limitsOf(target: MountTarget): Promise<UploadLimits> {
    return remembered(this.limits, target.config.id, () => uploadLimits(this.deps, target.config));
  }

  /** The file's target in its folder's mount; a name that is a mount point resolves to that mount (and is refused). */
  private async targetOf(path: FsPath): Promise<MountTarget> {
    const folder = await this.folderOf(parentOf(path));
    this.mountPoints ??= visibleMounts(this.deps, this.caller.principal).then((mounts) => new Set(mounts.map((mount) => normalizePath(mount.mount_path).text)));
    if ((await this.mountPoints).has(path.text)) return resolveInMount(this.deps, this.caller, path);
    return withInner(folder, [...folder.inner, nameOf(path)]);
  }

  /** Takes the next file part; it is read (stored or drained) in its turn. */
  add(folder: FsPath, relativePath: string, contentType: string, policy: FsConflictPolicy, stream: Readable): void {
    const index = this.outcomes.length;
    const shownPath = () => `${folder.text === '/' ? '' : folder.text}/${relativePath}`;
    if (index >= FS_UPLOAD_GROUP_MAX_FILES) {
      stream.resume();
      let path = shownPath();
      try {
        path = filePathOf(folder, relativePath).text;
      } catch {
        // Answered under the path as sent.
      }
      const message = translate('fs_upload_too_many_files', this.lang, { max: FS_UPLOAD_GROUP_MAX_FILES });
      this.outcomes.push(Promise.resolve({ failed: { path, relativePath, error: 'too_many_files', message } }));
      return;
    }
    this.outcomes.push(this.atOnce(() => this.store(index, folder, relativePath, contentType, policy, stream, shownPath)));
  }

  /**
   * Stores one file. Files go to storage a few at a time, but each waits for the earlier ones it depends on: the
   * same path (the later one wins), or a path one of them takes as a folder (`a` and `a/b.txt`, either order), so
   * that the group means what it would sent one file at a time.
   */
  private async store(
    index: number,
    folder: FsPath,
    relativePath: string,
    contentType: string,
    policy: FsConflictPolicy,
    stream: Readable,
    shownPath: () => string,
  ): Promise<Outcome> {
    let path: string | undefined;
    let finished = () => {};
    try {
      const file = filePathOf(folder, relativePath);
      path = file.text;
      const before = [...this.storing.values()].filter((other) => isWithin(other.path, file) || isWithin(file, other.path));
      this.storing.set(index, { path: file, done: new Promise<void>((resolve) => (finished = resolve)) });
      await Promise.all(before.map((other) => other.done));
      const target = await this.targetOf(file);
      const limits = await this.limitsOf(target);
      this.touch(target);
      // Read lazily: a form that breaks off while the checks above ran has already failed the part's stream, and
      // the iterator still reports that to writeFile (a listener attached now would wait for an end that came).
      const body = Readable.from(stream.iterator({ destroyOnReturn: false }), { objectMode: false });
      body.on('error', () => undefined);
      const { result } = await writeWithPolicy(this.deps, target, policy, body, contentType, { limits, deferInvalidate: true });
      return { stored: { ...result, relativePath } };
    } catch (error) {
      const shown = path ?? shownPath();
      const known = storageError(shown, error);
      const apiError = known instanceof ApiError ? known : new ApiError(502, 'fs_storage_unavailable', { reason: known.message });
      return { failed: { path: shown, relativePath, error: batchErrorOf(apiError), message: translate(apiError.messageKey, this.lang, apiError.params) } };
    } finally {
      // Whatever writeFile did not read (a refused file) is drained, so the next part comes.
      stream.resume();
      this.storing.delete(index);
      finished();
    }
  }

  /** The file's folder changes (even a refused write may have removed what was there): its listings go. */
  private touch(target: MountTarget): void {
    let folders = this.touched.get(target.mount.id);
    if (!folders) {
      folders = new Set();
      this.touched.set(target.mount.id, folders);
    }
    folders.add(target.inner.slice(0, -1).join('/'));
  }

  /** Waits for every file, then drops the touched listings once per mount; answers each file in form order. */
  async settle(): Promise<FsUploadBatchResult> {
    const outcomes = await Promise.all(this.outcomes);
    for (const [mountId, folders] of this.touched) await invalidateFolders(this.deps, mountId, folders);
    this.touched.clear();
    const result: FsUploadBatchResult = { succeeded: [], failed: [] };
    for (const outcome of outcomes) {
      if ('stored' in outcome) result.succeeded.push(outcome.stored);
      else result.failed.push(outcome.failed);
    }
    return result;
  }
}

/** Reads an upload-batch form and stores its files; see the top of this file. `onFolder` hears the folder first named. */
export async function receiveUploadBatch(
  deps: AppDeps,
  caller: FsCaller,
  request: Request,
  lang: Lang,
  onFolder: (folder: string) => void = () => undefined,
): Promise<FsUploadBatchResult> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(contentType) || !request.body) throw notMultipart();
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      defParamCharset: 'utf8',
      limits: { fields: MAX_PARTS, parts: MAX_PARTS, fieldSize: 8 * 1024 },
    });
  } catch {
    throw notMultipart();
  }

  const group = new UploadGroup(deps, caller, lang);
  let folder: FsPath | undefined;
  let policy: FsConflictPolicy = 'replace';
  let next: { relativePath?: string; mimetype?: string } = {};
  let problem: Error | undefined;
  const fail = (error: Error) => {
    problem ??= error;
  };

  parser.on('field', (name, value) => {
    if (problem) return;
    if (name === 'path') {
      if (folder) return;
      try {
        folder = normalizePath(value, 'path');
        onFolder(folder.text);
      } catch (error) {
        fail(error as Error);
      }
    } else if (name === 'onConflict') {
      const chosen = v.safeParse(fsConflictPolicySchema, value);
      if (chosen.success) policy = chosen.output;
      else fail(badInput('onConflict', 'invalid_choice'));
    } else if (name === 'relativePath') next.relativePath = value;
    else if (name === 'mimetype') next.mimetype = value;
  });
  parser.on('file', (_name, stream, info) => {
    // A form that breaks off fails the stream of the file being read, whether or not anyone reads it yet.
    stream.on('error', () => undefined);
    if (!problem && !folder) fail(badInput('path', 'must_come_first'));
    if (!problem && next.relativePath === undefined) fail(badInput('relativePath', 'required'));
    if (problem || !folder || next.relativePath === undefined) {
      stream.resume();
      return;
    }
    group.add(folder, next.relativePath, next.mimetype || info.mimeType, policy, stream);
    next = {};
  });
  parser.on('partsLimit', () => fail(badInput('body', 'too_many_parts')));
  parser.on('fieldsLimit', () => fail(badInput('body', 'too_many_parts')));

  try {
    await pipeline(Readable.fromWeb(request.body as WebReadableStream<Uint8Array>), parser);
  } catch (error) {
    // The files read whole before the break are stored (and listed again); the one cut off left nothing.
    await group.settle();
    throw error instanceof ApiError ? error : badInput('body', 'malformed_multipart');
  }
  const result = await group.settle();
  if (problem) throw problem;
  if (group.files === 0) throw folder ? new ApiError(400, 'upload_no_file', {}, { field: 'file', issue: 'required' }) : badInput('path', 'required');
  return result;
}
