import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { FsItem, FsListing } from '../contract/fs';
import { explorerMachine, type ExplorerView } from './explorer.machine';

const file = (name: string, size: number, modified: string): FsItem => ({
  name,
  path: `/local/${name}`,
  isDirectory: false,
  isVirtual: false,
  size,
  modified,
  mimetype: 'text/plain',
  etag: null,
});
const folder = (name: string): FsItem => ({ ...file(name, 0, ''), path: `/local/${name}/`, isDirectory: true, modified: null });

const listing = (path: string, items: FsItem[]): FsListing => ({ path, type: 'directory', isVirtual: false, mountId: 'm1', items });

function start(folders: Record<string, FsItem[] | Error>) {
  const calls: { path: string; refresh: boolean }[] = [];
  const saved: ExplorerView[] = [];
  const machine = explorerMachine.provide({
    actors: {
      listFolder: fromPromise(async ({ input }: { input: { path: string; refresh: boolean } }) => {
        calls.push(input);
        const items = folders[input.path];
        if (!items) throw Object.assign(new Error('You can only access /docs/ and its subdirectories'), { status: 403 });
        if (items instanceof Error) throw items;
        return listing(input.path, items);
      }),
    },
    actions: { saveView: (_, { view }) => saved.push(view) },
  });
  const actor = createActor(machine, { input: { path: '/local', view: 'list' } }).start();
  return { actor, calls, saved };
}

const items = [file('b.txt', 30, '2026-01-02'), folder('zeta'), file('a10.txt', 10, '2026-01-03'), file('a9.txt', 20, '2026-01-01'), folder('alpha')];
const ready = (actor: ReturnType<typeof start>['actor']) => waitFor(actor, (state) => state.hasTag('ready') || state.hasTag('error'));

describe('explorer machine', () => {
  it('lists the folder it opens on, folders first, names in natural order, and sorts by size and date both ways', async () => {
    const { actor, calls } = start({ '/local/': items });
    await ready(actor);
    expect(calls).toEqual([{ path: '/local/', refresh: false }]);
    const names = () => actor.getSnapshot().context.listing?.items.map((item) => item.name);
    expect(names()).toEqual(['alpha', 'zeta', 'a9.txt', 'a10.txt', 'b.txt']);
    actor.send({ type: 'explorer.sort', key: 'size' });
    expect(names()).toEqual(['alpha', 'zeta', 'a10.txt', 'a9.txt', 'b.txt']);
    actor.send({ type: 'explorer.sort', key: 'size' });
    expect(names()).toEqual(['alpha', 'zeta', 'b.txt', 'a9.txt', 'a10.txt']);
    actor.send({ type: 'explorer.sort', key: 'modified' });
    expect(names()).toEqual(['alpha', 'zeta', 'a9.txt', 'b.txt', 'a10.txt']);
  });

  it('selects by click, ctrl-click and shift-click ranges in the shown order, all, and none', async () => {
    const { actor } = start({ '/local/': items });
    await ready(actor);
    const selection = () => actor.getSnapshot().context.selection;
    actor.send({ type: 'selection.click', path: '/local/zeta/' });
    expect(selection()).toEqual(['/local/zeta/']);
    actor.send({ type: 'selection.click', path: '/local/a10.txt', range: true });
    expect(selection()).toEqual(['/local/zeta/', '/local/a9.txt', '/local/a10.txt']);
    actor.send({ type: 'selection.click', path: '/local/a9.txt', toggle: true });
    expect(selection()).toEqual(['/local/zeta/', '/local/a10.txt']);
    actor.send({ type: 'selection.click', path: '/local/alpha/', toggle: true });
    expect(selection()).toEqual(['/local/zeta/', '/local/a10.txt', '/local/alpha/']);
    actor.send({ type: 'selection.all' });
    expect(selection()).toHaveLength(5);
    actor.send({ type: 'selection.clear' });
    expect(selection()).toEqual([]);
  });

  it('moves the keyboard focus within the list and extends the selection with shift', async () => {
    const { actor } = start({ '/local/': items });
    await ready(actor);
    const context = () => actor.getSnapshot().context;
    actor.send({ type: 'focus.move', by: 1 });
    expect(context().focused).toBe('/local/alpha/');
    actor.send({ type: 'focus.move', by: -1 });
    expect(context().focused).toBe('/local/alpha/');
    actor.send({ type: 'focus.move', by: 2, extend: true });
    expect(context().focused).toBe('/local/a9.txt');
    expect(context().selection).toEqual(['/local/alpha/', '/local/zeta/', '/local/a9.txt']);
    actor.send({ type: 'focus.move', by: 99 });
    expect(context().focused).toBe('/local/b.txt');
  });

  it('opens another folder with an empty selection, and refreshes past the cache after a change', async () => {
    const { actor, calls } = start({ '/local/': items, '/local/alpha/': [file('c.txt', 1, '2026-01-01')] });
    await ready(actor);
    actor.send({ type: 'selection.click', path: '/local/b.txt' });
    actor.send({ type: 'dialog.open', dialog: { kind: 'rename', path: '/local/b.txt' } });
    actor.send({ type: 'explorer.open', path: '/local/alpha' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await ready(actor);
    expect(actor.getSnapshot().context).toMatchObject({ path: '/local/alpha/', selection: [], dialog: null });
    actor.send({ type: 'dialog.open', dialog: { kind: 'mkdir' } });
    actor.send({ type: 'folder.changed' });
    await ready(actor);
    expect(actor.getSnapshot().context.dialog).toBeNull();
    expect(calls.at(-1)).toEqual({ path: '/local/alpha/', refresh: true });
    actor.send({ type: 'explorer.refresh' });
    await ready(actor);
    expect(calls.at(-1)).toEqual({ path: '/local/alpha/', refresh: true });
  });

  it('keeps a selection through a refresh only for items still there', async () => {
    const folders: Record<string, FsItem[]> = { '/local/': items };
    const { actor } = start(folders);
    await ready(actor);
    actor.send({ type: 'selection.all' });
    folders['/local/'] = items.slice(0, 2);
    actor.send({ type: 'explorer.refresh' });
    await ready(actor);
    expect(actor.getSnapshot().context.selection.sort()).toEqual(['/local/b.txt', '/local/zeta/']);
  });

  it('says why a folder cannot be listed, and lists again once the user moves on', async () => {
    const { actor } = start({ '/docs/': [] });
    await ready(actor);
    expect(actor.getSnapshot().hasTag('error')).toBe(true);
    expect(actor.getSnapshot().context.failure).toEqual({ status: 403, message: 'You can only access /docs/ and its subdirectories' });
    actor.send({ type: 'selection.all' });
    expect(actor.getSnapshot().context.selection).toEqual([]);
    actor.send({ type: 'explorer.open', path: '/docs/' });
    await ready(actor);
    expect(actor.getSnapshot().hasTag('ready')).toBe(true);
    expect(actor.getSnapshot().context.failure).toBeUndefined();
  });

  it('switches the view and saves the choice', async () => {
    const { actor, saved } = start({ '/local/': items });
    await ready(actor);
    actor.send({ type: 'explorer.view', view: 'grid' });
    expect(actor.getSnapshot().context.view).toBe('grid');
    expect(saved).toEqual(['grid']);
  });

  it('shows the first page of a large folder at once, adds the rest page by page, and keeps what came when a page fails', async () => {
    const many = Array.from({ length: 25 }, (_, index) => file(`f${index}.txt`, index, '2026-01-01'));
    const pageOf = (offset: number, limit: number): FsListing => ({
      ...listing('/local/', many.slice(offset, offset + limit)),
      total: many.length,
      nextOffset: offset + limit < many.length ? offset + limit : null,
    });
    const asked: number[] = [];
    let failAt = -1;
    const machine = explorerMachine.provide({
      actors: {
        listFolder: fromPromise(async () => pageOf(0, 10)),
        listMore: fromPromise(async ({ input }: { input: { path: string; offset: number } }) => {
          asked.push(input.offset);
          if (input.offset === failAt) throw Object.assign(new Error('The storage did not answer'), { status: 502 });
          // A page may repeat an item of the one before when the folder changed in between: it is listed once.
          return pageOf(input.offset - 1, 11);
        }),
      },
    });
    const actor = createActor(machine, { input: { path: '/local', view: 'list' } }).start();
    await ready(actor);
    await waitFor(actor, (state) => !state.hasTag('paging'));
    expect(asked).toEqual([10, 20]);
    const context = actor.getSnapshot().context;
    expect(context.listing?.items.map((item) => item.name)).toEqual(many.map((item) => item.name));
    actor.send({ type: 'selection.all' });
    expect(actor.getSnapshot().context.selection).toHaveLength(25);

    failAt = 20;
    asked.length = 0;
    actor.send({ type: 'explorer.refresh' });
    await waitFor(actor, (state) => state.hasTag('ready') && !state.hasTag('paging'));
    expect(asked).toEqual([10, 20]);
    expect(actor.getSnapshot().context.listing?.items).toHaveLength(20);
    expect(actor.getSnapshot().context.pageFailure).toEqual({ status: 502, message: 'The storage did not answer' });
  });

  it('merges each page into the order shown, and "select all" takes the pages still to come', async () => {
    // Pages in an order of their own (a folder that changed, or sorted by size while listing): merged, never re-sorted.
    const many = Array.from({ length: 30 }, (_, index) => file(`f${index}.txt`, (index * 7) % 30, '2026-01-01'));
    const pages = [many.slice(20), many.slice(0, 10), many.slice(10, 20)];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const machine = explorerMachine.provide({
      actors: {
        listFolder: fromPromise(async (): Promise<FsListing> => ({ ...listing('/local/', pages[0]!), total: 30, nextOffset: 10 })),
        listMore: fromPromise(async ({ input }: { input: { path: string; offset: number } }): Promise<FsListing> => {
          await held;
          return { ...listing('/local/', pages[input.offset / 10]!), total: 30, nextOffset: input.offset === 20 ? null : input.offset + 10 };
        }),
      },
    });
    const actor = createActor(machine, { input: { path: '/local', view: 'list' } }).start();
    await waitFor(actor, (state) => state.hasTag('paging'));
    actor.send({ type: 'explorer.sort', key: 'size' });
    actor.send({ type: 'selection.all' });
    expect(actor.getSnapshot().context.selection).toHaveLength(10);
    // Delete of "select all" waits for the rest of the folder, then names every item.
    actor.send({ type: 'dialog.open', dialog: { kind: 'delete', paths: actor.getSnapshot().context.selection } });
    expect(actor.getSnapshot().context.dialog).toBeNull();
    release();
    await waitFor(actor, (state) => !state.hasTag('paging'));
    const context = actor.getSnapshot().context;
    const bySize = [...many].sort((a, b) => a.size - b.size || a.name.localeCompare(b.name, undefined, { numeric: true })).map((item) => item.path);
    expect(context.listing?.items.map((item) => item.path)).toEqual(bySize);
    expect([...context.selection].sort()).toEqual([...bySize].sort());
    expect(context.dialog).toEqual({ kind: 'delete', paths: context.selection });
  });

  it('leaves the pages still to come out of a selection changed after "select all"', async () => {
    const many = Array.from({ length: 20 }, (_, index) => file(`f${index}.txt`, index, '2026-01-01'));
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const machine = explorerMachine.provide({
      actors: {
        listFolder: fromPromise(async (): Promise<FsListing> => ({ ...listing('/local/', many.slice(0, 10)), total: 20, nextOffset: 10 })),
        listMore: fromPromise(async (): Promise<FsListing> => {
          await held;
          return { ...listing('/local/', many.slice(10)), total: 20, nextOffset: null };
        }),
      },
    });
    const actor = createActor(machine, { input: { path: '/local', view: 'list' } }).start();
    await waitFor(actor, (state) => state.hasTag('paging'));
    actor.send({ type: 'selection.all' });
    actor.send({ type: 'dialog.open', dialog: { kind: 'move', paths: [] } });
    actor.send({ type: 'selection.click', path: '/local/f3.txt', toggle: true });
    release();
    await waitFor(actor, (state) => !state.hasTag('paging'));
    const context = actor.getSnapshot().context;
    expect(context.selection).toHaveLength(9);
    expect(context.selection).not.toContain('/local/f3.txt');
    expect(context.dialog).toBeNull();
  });
});
