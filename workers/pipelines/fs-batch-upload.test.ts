import { describe, expect, it } from 'vitest';
import type { BatchFile } from '../../contract/transfer';
import { apiAnswer, fakeContext, fakeTransport, type SeenRequest } from '../testing/fakes';
import { CurrentFile, fileAtOffset, fsBatchUpload, type BatchHooks } from './fs-batch-upload';

const api = { baseUrl: 'https://app.test', language: 'en-US' };
const entry = (relativePath: string, content: string): BatchFile => ({ file: new File([content], relativePath.split('/').pop()!), relativePath });

/**
 * A server whose `/local/up/` holds `stored` (relative path: content): `/fs/exists` answers those (sizes only, as
 * S3 would), and `upload-batch` stores each file under the `onConflict` the form gave it, answering the outcome.
 */
function server(stored: Record<string, string>) {
  const policies: Record<string, string> = {};
  const fake = fakeTransport((request: SeenRequest) => {
    if (request.path.endsWith('/fs/exists')) {
      const { paths } = JSON.parse(String(request.body)) as { paths: string[] };
      const existing = paths.filter((path) => path.replace('/local/up/', '') in stored).map((path) => ({ path, kind: 'file', size: stored[path.replace('/local/up/', '')]!.length, etag: null }));
      return apiAnswer({ existing });
    }
    const form = request.body as FormData;
    let policy = 'replace';
    const succeeded: { relativePath: string; outcome: string }[] = [];
    for (const [name, value] of form.entries()) {
      if (name === 'onConflict') policy = String(value);
      if (name !== 'relativePath') continue;
      const path = String(value);
      policies[path] = policy;
      succeeded.push({ relativePath: path, outcome: path in stored ? (policy === 'rename' ? 'renamed' : policy === 'skip' ? 'skipped' : 'replaced') : 'created' });
    }
    return apiAnswer({ succeeded: succeeded.map((item) => ({ ...item, path: `/local/up/${item.relativePath}`, size: 1, etag: 'e', mimetype: 'text/plain' })), failed: [] });
  });
  return { ...fake, policies };
}

function hooks() {
  const acknowledged: string[] = [];
  const value: BatchHooks = {
    acknowledged: async (paths) => void acknowledged.push(...paths),
    resumeOf: async () => undefined,
    finishedLarge: async () => undefined,
  };
  return { value, acknowledged };
}

const files = [entry('same.txt', 'same'), entry('changed.txt', 'new content'), entry('new.txt', 'n')];
const stored = { 'same.txt': 'same', 'changed.txt': 'old' };

describe('a batch upload into names that exist', () => {
  it('sends nothing on its first run and answers the conflicts, the identical one told apart', async () => {
    const { transport, requests } = server(stored);
    const { context } = fakeContext(transport);
    const result = await fsBatchUpload({ taskId: 't', api, folder: '/local/up/', files, done: new Set() }, context, hooks().value);
    expect(requests.map((request) => request.path)).toEqual(['/user/fs/exists']);
    expect(result.conflicts?.map(({ path, identical }) => [path, identical])).toEqual([
      ['same.txt', true],
      ['changed.txt', false],
    ]);
  });

  it('after the decision, skips without sending, keeps both, and asks the server to refuse any new taken name', async () => {
    const { transport, policies } = server(stored);
    const { context } = fakeContext(transport);
    const recorded = hooks();
    const conflicts = [
      { path: 'same.txt', targetPath: '/local/up/same.txt', identical: true },
      { path: 'changed.txt', targetPath: '/local/up/changed.txt', identical: false },
    ];
    const result = await fsBatchUpload(
      { taskId: 't', api, folder: '/local/up/', files, done: new Set(), resolution: { decision: { choice: 'rename', skipIdentical: true }, conflicts } },
      context,
      recorded.value,
    );
    expect(policies).toEqual({ 'changed.txt': 'rename', 'new.txt': 'fail' });
    expect(result).toMatchObject({ succeeded: ['changed.txt', 'new.txt'], skipped: ['same.txt'], renamed: ['changed.txt'] });
    expect(recorded.acknowledged.sort()).toEqual(['changed.txt', 'new.txt', 'same.txt']);
  });

  it('a run of a batch the journal knew takes identical files as sent before, and asks only about the others', async () => {
    const { transport } = server(stored);
    const { context } = fakeContext(transport);
    const recorded = hooks();
    const result = await fsBatchUpload({ taskId: 't', api, folder: '/local/up/', files, done: new Set(), rerun: true }, context, recorded.value);
    expect(recorded.acknowledged).toEqual(['same.txt']);
    expect(result.succeeded).toEqual(['same.txt']);
    expect(result.conflicts?.map((conflict) => conflict.path)).toEqual(['changed.txt']);
  });
});

describe("a batch's current file", () => {
  const group = [entry('a.txt', 'aaaa'), entry('b.txt', 'bb'), entry('c.txt', 'cccccc')];

  it('is the file whose bytes go at that offset of the group', () => {
    expect([0, 3, 4, 5, 6, 11, 99].map((offset) => fileAtOffset(group, offset))).toEqual(['a.txt', 'a.txt', 'b.txt', 'b.txt', 'c.txt', 'c.txt', 'c.txt']);
  });

  it('is the earliest file any lane is sending, so it moves forward through the batch', () => {
    const batch = Array.from({ length: 10 }, (_, index) => entry(`f-${index}`, 'x'));
    const told: string[] = [];
    const current = new CurrentFile(batch, (path) => told.push(path));
    current.at(0, 'f-0');
    current.at(1, 'f-5');
    current.at(2, 'f-8');
    current.at(0, 'f-1');
    current.done(0);
    current.at(2, 'f-9');
    expect(told).toEqual(['f-0', 'f-0', 'f-0', 'f-1', 'f-5', 'f-5']);
  });
});

describe('a batch group on its way', () => {
  it("moves the bar and the current file with the group's bytes, before the server answers", async () => {
    const group = [entry('a.txt', 'a'.repeat(400)), entry('b.txt', 'b'.repeat(400)), entry('c.txt', 'c'.repeat(400))];
    let midway: { loaded: number; files: string[] } | undefined;
    const { transport } = fakeTransport(async (request) => {
      if (request.path.endsWith('/fs/exists')) return apiAnswer({ existing: [] });
      // Half of the form sent: the middle file's bytes are going.
      request.onUploadProgress?.(1000, 2000);
      // The meter and the current file are sent at most a few times a second: wait for their next turn.
      const seen = () => ({
        loaded: Math.max(0, ...events.flatMap((event) => (event.type === 'engine.progress' ? [event.progress.loaded] : []))),
        files: events.flatMap((event) => (event.type === 'engine.item' ? [event.currentFile] : [])),
      });
      for (let waited = 0; waited < 10_000 && (seen().loaded === 0 || seen().files.at(-1) !== 'b.txt'); waited += 100) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      midway = seen();
      const paths = group.map((item) => item.relativePath);
      return apiAnswer({ succeeded: paths.map((path) => ({ relativePath: path, outcome: 'created', path: `/local/up/${path}`, size: 400, etag: 'e', mimetype: 'text/plain' })), failed: [] });
    });
    const { context, events } = fakeContext(transport);
    const result = await fsBatchUpload({ taskId: 't', api, folder: '/local/up/', files: group, done: new Set() }, context, hooks().value);
    expect(result.succeeded).toHaveLength(3);
    expect(midway?.loaded).toBe(600);
    expect(midway?.files.at(-1)).toBe('b.txt');
  });
});
