import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { FsItemsResult } from '../../contract/transfer';
import { apiAnswer, fakeTransport, type SeenRequest } from '../testing/fakes';
import { conflictPolicies, failuresToConflicts, findConflicts } from './conflicts';

const api = { baseUrl: 'https://app.test', language: 'en-US' };
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** `/fs/exists` answering, of the paths asked, those in `stored` (by path: content, or `folder`). */
function existsServer(stored: Record<string, string | 'folder'>) {
  return fakeTransport((request: SeenRequest) => {
    const { paths } = JSON.parse(String(request.body)) as { paths: string[] };
    const existing = paths
      .filter((path) => path in stored)
      .map((path) => {
        const content = stored[path]!;
        return content === 'folder'
          ? { path: `${path}/`, kind: 'folder', size: 0, etag: null }
          : { path, kind: 'file', size: content.length, etag: 'e', sha256: sha256(content) };
      });
    return apiAnswer({ existing });
  });
}

describe('findConflicts', () => {
  it('names each taken target once, identical only when size and content match', async () => {
    const { transport, requests } = existsServer({ '/m/same.txt': 'hello', '/m/other.txt': 'hellO', '/m/longer.txt': 'hello!', '/m/dir': 'folder' });
    const writes = ['same.txt', 'other.txt', 'longer.txt', 'dir', 'new.txt'].map((name) => ({ path: name, targetPath: `/m/${name}`, file: new Blob(['hello']) }));
    const conflicts = await findConflicts(transport, api, writes, new AbortController().signal);
    expect(requests[0]?.path).toBe('/user/fs/exists');
    expect(JSON.parse(String(requests[0]?.body))).toEqual({ paths: writes.map((write) => write.targetPath), hashes: true });
    expect(conflicts.map(({ path, identical }) => [path, identical])).toEqual([
      ['same.txt', true],
      ['other.txt', false],
      ['longer.txt', false],
      ['dir', false],
    ]);
    expect(conflicts[2]).toMatchObject({ existingSize: 6, newSize: 5 });
  });

  it('asks in slices the server takes: 2,500 files are three requests', async () => {
    const { transport, requests } = existsServer({});
    const writes = Array.from({ length: 2500 }, (_, index) => ({ path: `${index}`, targetPath: `/m/${index}`, file: new Blob(['x']) }));
    expect(await findConflicts(transport, api, writes, new AbortController().signal)).toEqual([]);
    expect(requests.map((request) => (JSON.parse(String(request.body)) as { paths: string[] }).paths.length)).toEqual([1000, 1000, 500]);
  });
});

describe('conflictPolicies', () => {
  it('a first run fails on every taken name; a decided run applies the choice, skipping identical files', () => {
    expect(conflictPolicies(undefined)('a')).toBe('fail');
    const conflicts = [
      { path: 'same', targetPath: '/m/same', identical: true },
      { path: 'changed', targetPath: '/m/changed', identical: false },
      { path: 'mine', targetPath: '/m/mine', identical: false },
    ];
    const policyOf = conflictPolicies({ decision: { choice: 'rename', skipIdentical: true, perPath: { mine: 'replace' } }, conflicts });
    expect(['same', 'changed', 'mine', 'new'].map(policyOf)).toEqual(['skip', 'rename', 'replace', 'fail']);
  });
});

describe('failuresToConflicts', () => {
  it('moves only the taken names out of the failures', () => {
    const result: FsItemsResult = {
      succeeded: [],
      skipped: [],
      failed: [
        { path: '/a/x', error: { code: 'unknown', reason: 'fs_exists' } },
        { path: '/a/y', error: { code: 'unknown', reason: 'internal' } },
      ],
    };
    failuresToConflicts(result, (path) => path.replace('/a/', '/b/'));
    expect(result.failed.map((item) => item.path)).toEqual(['/a/y']);
    expect(result.conflicts).toEqual([{ path: '/a/x', targetPath: '/b/x', identical: false }]);
  });
});
