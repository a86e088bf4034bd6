// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { toasts } from '../../../lib/toast';
import { useManagementList, type ListPage, type ManagementList } from './use-management-list';

type Row = { id: string };

beforeAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});

const unmounts: (() => void)[] = [];
afterEach(() => {
  unmounts.splice(0).forEach((unmount) => act(unmount));
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/** Renders the hook in a component and gives its latest value. */
async function renderList(
  load: (page: number) => Promise<ListPage<Row> | readonly Row[]>,
  pageSize?: number,
  search?: (query: string) => Promise<readonly Row[]>,
) {
  let latest: ManagementList<Row> | undefined;
  function Probe() {
    latest = useManagementList({ load, pageSize, search });
    return null;
  }
  const root = createRoot(document.createElement('div'));
  act(() => root.render(<Probe />));
  unmounts.push(() => root.unmount());
  await settle();
  return {
    get list() {
      if (!latest) throw new Error('not rendered');
      return latest;
    },
  };
}

/** Lets pending loads answer and React render what they bring. */
const settle = () => act(async () => {});

/** A server-side list of `count` rows, paged by `pageSize`. */
function rowStore(count: number, pageSize: number) {
  let rows = Array.from({ length: count }, (_, index) => ({ id: `row-${index + 1}` }));
  const load = vi.fn(async (page: number) => ({ items: rows.slice((page - 1) * pageSize, page * pageSize), total: rows.length }));
  const remove = (id: string) => {
    rows = rows.filter((row) => row.id !== id);
  };
  return { load, remove };
}

const ids = (list: ManagementList<Row>) => list.items.map((row) => row.id);

describe('useManagementList paging', () => {
  it("shows page N's rows once page N is chosen, and page 1's again when going back", async () => {
    const store = rowStore(25, 10);
    const view = await renderList(store.load, 10);
    expect(ids(view.list)).toEqual(['row-1', 'row-2', 'row-3', 'row-4', 'row-5', 'row-6', 'row-7', 'row-8', 'row-9', 'row-10']);
    expect(store.load).toHaveBeenCalledTimes(1);

    act(() => view.list.setPage(2));
    await settle();
    expect(view.list.page).toBe(2);
    expect(ids(view.list)[0]).toBe('row-11');
    expect(view.list.total).toBe(25);

    act(() => view.list.setPage(1));
    await settle();
    expect(ids(view.list)[0]).toBe('row-1');
    expect(store.load.mock.calls.map(([page]) => page)).toEqual([1, 2, 1]);
  });

  it('keeps the page chosen last when an earlier page answers after it', async () => {
    const answers = new Map<number, (rows: ListPage<Row>) => void>();
    const load = (page: number) => new Promise<ListPage<Row>>((resolve) => answers.set(page, resolve));
    const view = await renderList(load, 10);
    answers.get(1)?.({ items: [{ id: 'first' }], total: 30 });
    await settle();

    act(() => view.list.setPage(2));
    act(() => view.list.setPage(3));
    answers.get(3)?.({ items: [{ id: 'third' }], total: 30 });
    await settle();
    answers.get(2)?.({ items: [{ id: 'second' }], total: 30 });
    await settle();
    expect(ids(view.list)).toEqual(['third']);
  });

  it('moves to the new last page when a deletion empties the page shown', async () => {
    const store = rowStore(11, 10);
    const view = await renderList(store.load, 10);
    act(() => view.list.setPage(2));
    await settle();
    expect(ids(view.list)).toEqual(['row-11']);

    await act(() => view.list.run(async () => store.remove('row-11')));
    await settle();
    expect(view.list.page).toBe(1);
    expect(ids(view.list)).toHaveLength(10);
  });

  it('takes a whole list answered as an array as its one page', async () => {
    const view = await renderList(async () => [{ id: 'a' }, { id: 'b' }]);
    expect(ids(view.list)).toEqual(['a', 'b']);
    expect(view.list.total).toBe(2);
  });
});

describe('useManagementList confirmation', () => {
  it('runs the confirmed action, closes the dialog and reloads the list', async () => {
    const store = rowStore(3, 10);
    const view = await renderList(store.load, 10);
    const run = vi.fn(async () => store.remove('row-2'));
    act(() => view.list.ask({ title: 'Delete?', description: 'Gone for good.', confirmLabel: 'Delete', run }));
    expect(view.list.confirming).toBe(true);

    await act(() => view.list.confirm());
    await settle();
    expect(run).toHaveBeenCalledOnce();
    expect(view.list.confirming).toBe(false);
    expect(view.list.busy).toBe(false);
    expect(ids(view.list)).toEqual(['row-1', 'row-3']);
    // The text stays while the dialog fades out.
    expect(view.list.confirmation?.title).toBe('Delete?');
  });

  it('toasts a failure and keeps the dialog open', async () => {
    const error = vi.spyOn(toasts, 'error');
    const store = rowStore(3, 10);
    const view = await renderList(store.load, 10);
    const run = () => Promise.reject(new Error('storage is away'));
    act(() => view.list.ask({ title: 'Delete?', description: '', confirmLabel: 'Delete', run }));

    await act(() => view.list.confirm());
    expect(error).toHaveBeenCalledOnce();
    expect(view.list.confirming).toBe(true);
    expect(view.list.busy).toBe(false);
    expect(store.load).toHaveBeenCalledTimes(1);
  });
});

describe('useManagementList editor', () => {
  it('opens on a row or for a new one, and after a save closes, says so and reloads', async () => {
    const success = vi.spyOn(toasts, 'success');
    const store = rowStore(2, 10);
    const view = await renderList(store.load, 10);

    act(() => view.list.openEditor());
    expect(view.list.editor).toEqual({ item: undefined });
    act(() => view.list.openEditor({ id: 'row-2' }));
    expect(view.list.editor?.item).toEqual({ id: 'row-2' });

    act(() => view.list.editorSaved('Saved'));
    await settle();
    expect(view.list.editor).toBeUndefined();
    expect(success).toHaveBeenCalledWith('Saved');
    expect(store.load).toHaveBeenCalledTimes(2);
  });
});

describe('useManagementList search', () => {
  it('shows the matching rows whole once typing pauses, with the ticks cleared, and the page again when cleared', async () => {
    vi.useFakeTimers();
    const store = rowStore(25, 10);
    const search = vi.fn(async (query: string) => [{ id: `match-${query}` }]);
    const view = await renderList(store.load, 10, search);
    expect(view.list.searchable).toBe(true);
    act(() => view.list.setPage(2));
    await settle();
    act(() => view.list.selection.toggle('row-11'));

    act(() => view.list.setQuery('no'));
    await act(() => vi.advanceTimersByTimeAsync(150));
    act(() => view.list.setQuery(' note '));
    await act(() => vi.advanceTimersByTimeAsync(199));
    expect(search).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1));
    await settle();
    expect(search.mock.calls).toEqual([['note']]);
    expect(ids(view.list)).toEqual(['match-note']);
    expect(view.list.searching).toBe(true);
    expect(view.list.selection.selected.size).toBe(0);

    // A row action (a delete, an edit) reloads the search, not a page.
    await act(() => view.list.run(async () => {}));
    await settle();
    expect(search).toHaveBeenCalledTimes(2);
    expect(store.load).toHaveBeenCalledTimes(2);

    act(() => view.list.setQuery(''));
    await act(() => vi.advanceTimersByTimeAsync(0));
    await settle();
    expect(view.list.searching).toBe(false);
    expect(view.list.page).toBe(2);
    expect(ids(view.list)[0]).toBe('row-11');
    expect(view.list.total).toBe(25);
  });

  it('has no search where the list gives none', async () => {
    const view = await renderList(rowStore(3, 10).load, 10);
    expect(view.list.searchable).toBe(false);
    act(() => view.list.setQuery('x'));
    await settle();
    expect(view.list.searching).toBe(false);
  });
});
