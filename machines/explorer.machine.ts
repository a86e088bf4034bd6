import { assign, fromPromise, setup } from 'xstate';
import type { FsItem, FsListing } from '../contract/fs';

export type ExplorerView = 'list' | 'grid';
export type SortKey = 'name' | 'size' | 'modified';
export interface ExplorerSort {
  key: SortKey;
  direction: 'asc' | 'desc';
}

/** The dialogs of the explorer: one at a time. Paths are full mount paths; folders end in `/`. */
export type ExplorerDialog =
  | { kind: 'mkdir' }
  | { kind: 'rename'; path: string }
  | { kind: 'delete'; paths: string[] }
  | { kind: 'copy'; paths: string[] }
  | { kind: 'move'; paths: string[] };

/** Why a folder could not be listed, as the API said it. */
export interface ExplorerFailure {
  status: number;
  message: string;
}

export interface ExplorerContext {
  /** The folder shown, ending in `/`. */
  path: string;
  listing?: FsListing;
  failure?: ExplorerFailure;
  view: ExplorerView;
  sort: ExplorerSort;
  /** Selected item paths. */
  selection: string[];
  /** Where a shift-click range starts. */
  anchor?: string;
  /** The item the keyboard is on. */
  focused?: string;
  dialog: ExplorerDialog | null;
  /** The next load skips the server's directory cache. */
  refresh: boolean;
}

export type ExplorerEvent =
  | { type: 'explorer.open'; path: string }
  | { type: 'explorer.refresh' }
  | { type: 'explorer.view'; view: ExplorerView }
  | { type: 'explorer.sort'; key: SortKey }
  /** A click on an item: alone, adding/removing it (ctrl/cmd), or a range from the anchor (shift). */
  | { type: 'selection.click'; path: string; toggle?: boolean; range?: boolean }
  | { type: 'selection.all' }
  | { type: 'selection.clear' }
  /** Arrow keys: move the keyboard's item by `by` in the shown order; with `extend`, select as it goes. */
  | { type: 'focus.move'; by: number; extend?: boolean }
  | { type: 'focus.set'; path: string }
  | { type: 'dialog.open'; dialog: ExplorerDialog }
  | { type: 'dialog.close' }
  /** An action changed the folder: close the dialog and list it again, fresh. */
  | { type: 'folder.changed' };

export interface ExplorerInput {
  path: string;
  view: ExplorerView;
}

/** A folder path always ends in `/`. */
export const asFolder = (path: string) => (path.endsWith('/') ? path : `${path}/`);

const compareBy: Record<SortKey, (a: FsItem, b: FsItem) => number> = {
  name: (a, b) => a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: 'base' }),
  size: (a, b) => a.size - b.size,
  modified: (a, b) => (a.modified ?? '').localeCompare(b.modified ?? ''),
};

/** The items in the order shown: folders first, then by the sort key (ties by name). */
export function sortedItems(listing: FsListing | undefined, sort: ExplorerSort): FsItem[] {
  if (!listing) return [];
  const sign = sort.direction === 'asc' ? 1 : -1;
  return [...listing.items].sort(
    (a, b) => Number(b.isDirectory) - Number(a.isDirectory) || sign * compareBy[sort.key](a, b) || compareBy.name(a, b),
  );
}

const shownPaths = (context: ExplorerContext) => sortedItems(context.listing, context.sort).map((item) => item.path);

function rangeBetween(paths: string[], from: string | undefined, to: string): string[] {
  const end = paths.indexOf(to);
  const start = from === undefined ? -1 : paths.indexOf(from);
  if (start < 0) return [to];
  return paths.slice(Math.min(start, end), Math.max(start, end) + 1);
}

function clicked(context: ExplorerContext, event: Extract<ExplorerEvent, { type: 'selection.click' }>): Partial<ExplorerContext> {
  if (event.range) return { selection: rangeBetween(shownPaths(context), context.anchor, event.path), focused: event.path };
  if (event.toggle) {
    const selected = context.selection.includes(event.path);
    return {
      selection: selected ? context.selection.filter((path) => path !== event.path) : [...context.selection, event.path],
      anchor: event.path,
      focused: event.path,
    };
  }
  return { selection: [event.path], anchor: event.path, focused: event.path };
}

function moved(context: ExplorerContext, event: Extract<ExplorerEvent, { type: 'focus.move' }>): Partial<ExplorerContext> {
  const paths = shownPaths(context);
  if (paths.length === 0) return {};
  const at = context.focused === undefined ? -1 : paths.indexOf(context.focused);
  const next = paths[Math.min(paths.length - 1, Math.max(0, at < 0 ? 0 : at + event.by))]!;
  if (!event.extend) return { focused: next };
  return { focused: next, selection: rangeBetween(paths, context.anchor ?? context.focused ?? next, next), anchor: context.anchor ?? context.focused ?? next };
}

/**
 * The mount explorer: which folder is shown and how (view, sort), what is selected, which dialog is open.
 * Listing a folder is the provided `listFolder` actor; the page renders the context and sends events. Tags:
 * `busy` while listing, `error` when the folder could not be listed, `ready` with a listing.
 */
export const explorerMachine = setup({
  types: {
    context: {} as ExplorerContext,
    events: {} as ExplorerEvent,
    input: {} as ExplorerInput,
  },
  actors: {
    listFolder: fromPromise<FsListing, { path: string; refresh: boolean }>(() => Promise.reject(new Error('listFolder not provided'))),
  },
  actions: {
    /** Keeps the chosen view for this browser (provided by the app). */
    saveView: (_, _params: { view: ExplorerView }) => {},
  },
}).createMachine({
  id: 'explorer',
  context: ({ input }) => ({
    path: asFolder(input.path),
    view: input.view,
    sort: { key: 'name', direction: 'asc' },
    selection: [],
    dialog: null,
    refresh: false,
  }),
  initial: 'loading',
  on: {
    'explorer.open': {
      target: '.loading',
      actions: assign(({ event }) => ({ path: asFolder(event.path), selection: [], anchor: undefined, focused: undefined, dialog: null })),
    },
    'explorer.refresh': { target: '.loading', actions: assign({ refresh: true }) },
    'folder.changed': { target: '.loading', actions: assign({ refresh: true, dialog: null }) },
    'explorer.view': {
      actions: [assign({ view: ({ event }) => event.view }), { type: 'saveView', params: ({ event }) => ({ view: event.view }) }],
    },
    'explorer.sort': {
      actions: assign({
        sort: ({ context, event }) => ({
          key: event.key,
          direction: context.sort.key === event.key && context.sort.direction === 'asc' ? 'desc' : 'asc',
        }),
      }),
    },
    'dialog.open': { actions: assign({ dialog: ({ event }) => event.dialog }) },
    'dialog.close': { actions: assign({ dialog: null }) },
  },
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        src: 'listFolder',
        input: ({ context }) => ({ path: context.path, refresh: context.refresh }),
        onDone: {
          target: 'ready',
          actions: assign(({ context, event }) => {
            // Selections survive a refresh only for items that are still there.
            const present = new Set(event.output.items.map((item) => item.path));
            return {
              listing: event.output,
              failure: undefined,
              refresh: false,
              selection: context.selection.filter((path) => present.has(path)),
              focused: context.focused !== undefined && present.has(context.focused) ? context.focused : undefined,
            };
          }),
        },
        onError: {
          target: 'failed',
          actions: assign(({ event }) => {
            const error = event.error as { status?: number; message?: string };
            return { listing: undefined, refresh: false, failure: { status: error.status ?? 0, message: error.message ?? '' } };
          }),
        },
      },
    },
    ready: {
      tags: ['ready'],
      on: {
        'selection.click': { actions: assign(({ context, event }) => clicked(context, event)) },
        'selection.all': { actions: assign({ selection: ({ context }) => shownPaths(context) }) },
        'selection.clear': { actions: assign({ selection: [], anchor: undefined }) },
        'focus.move': { actions: assign(({ context, event }) => moved(context, event)) },
        'focus.set': { actions: assign({ focused: ({ event }) => event.path }) },
      },
    },
    failed: { tags: ['error'] },
  },
});
