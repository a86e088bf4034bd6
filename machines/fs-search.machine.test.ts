import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { FsSearchHit, FsSearchQuery, FsSearchResult, MountIndex } from '../contract/search';
import { fsSearchMachine } from './fs-search.machine';

const hit = (name: string): FsSearchHit => ({
  name,
  path: `/local/docs/${name}`,
  folder: '/local/docs/',
  mountId: 'm1',
  isDirectory: false,
  isVirtual: false,
  size: 3,
  modified: '2026-01-01T00:00:00.000Z',
  mimetype: 'text/plain',
  etag: null,
});

const building: MountIndex = {
  mountId: 'm2',
  mountPath: '/s3',
  state: 'building',
  entries: 10,
  foldersPending: 4,
  builtAt: null,
  error: null,
  rescanMinutes: 60,
  nextRescanAt: null,
};

interface Call {
  query: FsSearchQuery;
  signal: AbortSignal;
  answer: (result: Partial<FsSearchResult>) => void;
  fail: (error: Error) => void;
}

/** The machine with a search that answers only when the test says so, each call recorded. */
function start(path = '/local/') {
  const calls: Call[] = [];
  const machine = fsSearchMachine.provide({
    actors: {
      search: fromPromise<FsSearchResult, FsSearchQuery>(
        ({ input, signal }) =>
          new Promise((resolve, reject) =>
            calls.push({
              query: input,
              signal,
              answer: (result) => resolve({ items: [], nextCursor: null, complete: true, incomplete: [], ...result }),
              fail: reject,
            }),
          ),
      ),
    },
  });
  const actor = createActor(machine, { input: { path } }).start();
  return { actor, calls };
}

const settled = (actor: ReturnType<typeof start>['actor']) => waitFor(actor, (state) => !state.hasTag('busy') && !state.matches('waiting'));

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('explorer search machine', () => {
  it('searches once typing pauses for 200 ms, below the folder shown', async () => {
    const { actor, calls } = start();
    for (const query of ['r', 're', 'rep', 'report']) {
      actor.send({ type: 'search.input', query });
      await vi.advanceTimersByTimeAsync(150);
    }
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(50);
    expect(calls.map((call) => call.query)).toEqual([{ q: 'report', path: '/local/', order: 'best' }]);
    calls[0]!.answer({ items: [hit('report.pdf')], complete: false, incomplete: [building] });
    await settled(actor);
    expect(actor.getSnapshot().value).toBe('shown');
    expect(actor.getSnapshot().context).toMatchObject({ items: [hit('report.pdf')], incomplete: [building] });
  });

  it('aborts the request under way when the text changes, and shows only the newer answer', async () => {
    const { actor, calls } = start();
    actor.send({ type: 'search.input', query: 'rep' });
    await vi.advanceTimersByTimeAsync(200);
    actor.send({ type: 'search.input', query: 'repo' });
    expect(calls[0]!.signal.aborted).toBe(true);
    calls[0]!.answer({ items: [hit('stale.txt')] });
    await vi.advanceTimersByTimeAsync(200);
    expect(calls[1]!.query.q).toBe('repo');
    calls[1]!.answer({ items: [hit('report.pdf')] });
    await settled(actor);
    expect(actor.getSnapshot().context.items.map((item) => item.name)).toEqual(['report.pdf']);
  });

  it('appends the next page with the cursor as it came, and stops when there is none', async () => {
    const { actor, calls } = start();
    actor.send({ type: 'search.input', query: 'a' });
    await vi.advanceTimersByTimeAsync(200);
    calls[0]!.answer({ items: [hit('a1')], nextCursor: 'c/1==' });
    await settled(actor);
    actor.send({ type: 'search.more' });
    expect(calls[1]!.query).toEqual({ q: 'a', path: '/local/', order: 'best', cursor: 'c/1==' });
    calls[1]!.answer({ items: [hit('a2')], nextCursor: null });
    await settled(actor);
    expect(actor.getSnapshot().context.items.map((item) => item.name)).toEqual(['a1', 'a2']);
    actor.send({ type: 'search.more' });
    expect(calls).toHaveLength(2);
  });

  it('keeps the results when a next page fails, and tries that page again on the next "Load more"', async () => {
    const { actor, calls } = start();
    actor.send({ type: 'search.input', query: 'a' });
    await vi.advanceTimersByTimeAsync(200);
    calls[0]!.answer({ items: [hit('a1')], nextCursor: 'next' });
    await settled(actor);
    actor.send({ type: 'search.more' });
    calls[1]!.fail(new Error('Network error'));
    await settled(actor);
    expect(actor.getSnapshot().context).toMatchObject({ failure: 'Network error', nextCursor: 'next' });
    expect(actor.getSnapshot().context.items).toHaveLength(1);
    actor.send({ type: 'search.more' });
    expect(calls[2]!.query.cursor).toBe('next');
  });

  it('searches again at once with a type or order, and leaves the type out for all', async () => {
    const { actor, calls } = start('/');
    actor.send({ type: 'search.kind', kind: 'folder' });
    expect(calls).toHaveLength(0);
    actor.send({ type: 'search.input', query: ' 报告 ' });
    await vi.advanceTimersByTimeAsync(200);
    expect(calls[0]!.query).toEqual({ q: '报告', path: '/', order: 'best', type: 'folder' });
    actor.send({ type: 'search.order', order: 'newest' });
    expect(calls[0]!.signal.aborted).toBe(true);
    expect(calls[1]!.query).toEqual({ q: '报告', path: '/', order: 'newest', type: 'folder' });
    actor.send({ type: 'search.kind', kind: 'all' });
    expect(calls[2]!.query).toEqual({ q: '报告', path: '/', order: 'newest' });
  });

  it('fails with the reason, searches again on retry, and clears back to idle', async () => {
    const { actor, calls } = start();
    actor.send({ type: 'search.input', query: 'x' });
    await vi.advanceTimersByTimeAsync(200);
    calls[0]!.fail(new Error('The index could not be read'));
    await settled(actor);
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.failure).toBe('The index could not be read');
    actor.send({ type: 'search.retry' });
    calls[1]!.answer({ items: [hit('x')] });
    await settled(actor);
    actor.send({ type: 'search.clear' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context).toMatchObject({ query: '', items: [], failure: undefined });
  });

  it('ends the search when another folder is shown or the text is emptied, with no request for either', async () => {
    const { actor, calls } = start();
    actor.send({ type: 'search.input', query: 'x' });
    actor.send({ type: 'search.input', query: '  ' });
    await vi.advanceTimersByTimeAsync(500);
    expect(calls).toHaveLength(0);
    actor.send({ type: 'search.input', query: 'x' });
    await vi.advanceTimersByTimeAsync(200);
    actor.send({ type: 'search.folder', path: '/local/docs/' });
    expect(calls[0]!.signal.aborted).toBe(true);
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context).toMatchObject({ path: '/local/docs/', query: '' });
  });
});
