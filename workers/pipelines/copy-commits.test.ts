import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FsClientCopy } from '../../contract/fs';
import { apiAnswer, fakeTransport, type SeenRequest } from '../testing/fakes';
import type { HttpResponse } from '../transport/http';
import { Commits } from './copy-commits';
import { emptyItemsResult } from './fs-items';

const api = { baseUrl: 'https://app.test', language: 'en-US' };

const copyOf = (name: string): FsClientCopy => ({
  sourcePath: `/src/${name}`,
  targetPath: `/dst/${name}`,
  targetMountId: 'm2',
  fileSize: 10,
  contentType: 'text/plain',
  downloadUrl: `https://source.test/${name}`,
  s3Path: `key/${name}`,
  upload: { kind: 'put', url: `https://target.test/${name}` },
});

/** `batch-copy-commit` answered by `answers` in turn; the target paths of each call. */
function server(...answers: ((targets: string[]) => HttpResponse)[]) {
  const calls: string[][] = [];
  const fake = fakeTransport((request: SeenRequest) => {
    const targets = (JSON.parse(String(request.body)) as { files: { targetPath: string }[] }).files.map((file) => file.targetPath);
    calls.push(targets);
    const answerFor = answers[calls.length - 1] ?? ((all: string[]) => apiAnswer({ succeeded: all, failed: [] }));
    return answerFor(targets);
  });
  return { ...fake, calls };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Commits (batch-copy-commit)', () => {
  it('commits the copies finished within a second in one call; a copy the server refused fails alone', async () => {
    const { transport, calls, requests } = server((targets) =>
      apiAnswer({ succeeded: targets.filter((path) => path !== '/dst/b'), failed: [{ path: '/dst/b', error: 'io', message: 'Disk full' }] }),
    );
    const result = emptyItemsResult();
    const commits = new Commits(transport, api, new AbortController().signal, result);

    commits.add(copyOf('a'), 'etag-a');
    await vi.advanceTimersByTimeAsync(500);
    commits.add(copyOf('b'), undefined);
    commits.add(copyOf('c'), undefined);
    await vi.advanceTimersByTimeAsync(499);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual([['/dst/a', '/dst/b', '/dst/c']]);
    expect(requests[0]?.path).toBe('/user/fs/batch-copy-commit');
    expect(JSON.parse(String(requests[0]?.body))).toMatchObject({ targetMountId: 'm2', files: [{ targetPath: '/dst/a', s3Path: 'key/a', etag: 'etag-a' }, { targetPath: '/dst/b' }, { targetPath: '/dst/c' }] });
    expect(result.succeeded).toEqual(['/dst/a', '/dst/c']);
    // Named by source path, as the task's other failures are.
    expect(result.failed).toEqual([{ path: '/src/b', error: { code: 'commit_failed', serverMessage: 'Disk full', reason: 'io' } }]);

    // A copy finished later waits for the next second.
    commits.add(copyOf('d'), undefined);
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls[1]).toEqual(['/dst/d']);
    await commits.settled();
    expect(result.succeeded).toEqual(['/dst/a', '/dst/c', '/dst/d']);
  });

  it('a refused call fails its copies with the plain error, and the next call still commits', async () => {
    const { transport, calls } = server(() => apiAnswer(null, 500));
    const result = emptyItemsResult();
    const commits = new Commits(transport, api, new AbortController().signal, result);
    commits.add(copyOf('a'), undefined);
    commits.add(copyOf('b'), undefined);
    await vi.advanceTimersByTimeAsync(1000);
    commits.add(copyOf('c'), undefined);
    await vi.advanceTimersByTimeAsync(1000);
    await commits.settled();

    expect(calls).toEqual([['/dst/a', '/dst/b'], ['/dst/c']]);
    const refused = { code: 'commit_failed', status: 500, serverMessage: 'refused', data: {} };
    expect(result.failed).toEqual([
      { path: '/src/a', error: refused },
      { path: '/src/b', error: refused },
    ]);
    expect(result.failed[0]?.error).not.toBeInstanceOf(Error);
    expect(result.succeeded).toEqual(['/dst/c']);
  });

  it('once the task has written everything, commits what waits at once', async () => {
    const { transport, calls } = server();
    const commits = new Commits(transport, api, new AbortController().signal, emptyItemsResult());
    commits.add(copyOf('a'), undefined);
    await commits.settled();
    expect(calls).toEqual([['/dst/a']]);
  });

  it('a move commits each copy with its source, counts the planned outcome, and prunes the moved folders last', async () => {
    const { transport, requests } = server();
    const result = emptyItemsResult();
    const commits = new Commits(transport, api, new AbortController().signal, result, 'move');
    commits.add({ ...copyOf('a'), outcome: 'renamed' }, undefined);
    commits.add({ ...copyOf('b'), outcome: 'created' }, undefined);
    await commits.settled();
    await commits.pruneMovedFolders(['/src/']);

    expect(requests.map((request) => request.path)).toEqual(['/user/fs/batch-move-commit', '/user/fs/batch-move-commit']);
    expect(JSON.parse(String(requests[0]?.body))).toMatchObject({ files: [{ targetPath: '/dst/a', sourcePath: '/src/a' }, { targetPath: '/dst/b', sourcePath: '/src/b' }] });
    expect(JSON.parse(String(requests[1]?.body))).toEqual({ targetMountId: 'm2', files: [], pruneFolders: ['/src/'] });
    expect(result.succeeded).toEqual(['/dst/a', '/dst/b']);
    expect(result.renamed).toEqual(['/dst/a']);
  });

  it('a move with nothing committed prunes nothing: its folders still hold every file', async () => {
    const { transport, requests } = server();
    const commits = new Commits(transport, api, new AbortController().signal, emptyItemsResult(), 'move');
    await commits.pruneMovedFolders(['/src/']);
    expect(requests).toEqual([]);
  });
});
