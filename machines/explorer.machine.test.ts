import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { FsItem, FsListing } from '../contract/fs';
import { explorerMachine, sortedItems, type ExplorerView } from './explorer.machine';

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
    const names = () => sortedItems(actor.getSnapshot().context.listing, actor.getSnapshot().context.sort).map((item) => item.name);
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

  it('sorts a listing once per order: the same listing and sort answer the same array', () => {
    const shown = listing('/local/', items);
    const byName = sortedItems(shown, { key: 'name', direction: 'asc' });
    expect(sortedItems(shown, { key: 'name', direction: 'asc' })).toBe(byName);
    expect(sortedItems(shown, { key: 'size', direction: 'asc' })).not.toBe(byName);
    expect(sortedItems({ ...shown }, { key: 'name', direction: 'asc' })).toEqual(byName);
  });
});
