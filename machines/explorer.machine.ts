import { assign, fromPromise, setup } from 'xstate';
import type { FsListing } from '../contract/fs';
import { mergePage, sortItems, type ExplorerSort, type SortKey } from './explorer-order';

export type { ExplorerSort, SortKey } from './explorer-order';
export type ExplorerView = 'list' | 'grid';

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
  /**
   * What has arrived of the folder, its items in the order shown (`sort`): a large one comes in pages,
   * `listing.nextOffset` says where the next starts.
   */
  listing?: FsListing;
  /**
   * The paths of `listing.items`, so that a page repeating an item (the folder changed between two pages) adds it
   * once. Grown in place as pages arrive, and made anew with each listing: a copy per page would be a pass over
   * every path listed so far.
   */
  listedPaths: Set<string>;
  failure?: ExplorerFailure;
  /** Why the rest of a folder listed in pages could not be: what came is shown. */
  pageFailure?: ExplorerFailure;
  view: ExplorerView;
  sort: ExplorerSort;
  /** Selected item paths. */
  selection: string[];
  /** "Select all" was chosen: the items of pages still to come are selected as they arrive. */
  allSelected: boolean;
  /**
   * An action on the selection asked for while "select all" still waits for pages: its dialog opens, with every
   * item, once the last page is in.
   */
  pendingDialog?: 'delete' | 'copy' | 'move';
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

/** The first page of a folder, its items put in the order shown. */
const firstPage = (listing: FsListing, sort: ExplorerSort) => ({ listing: { ...listing, items: sortItems(listing.items, sort) }, listedPaths: new Set(listing.items.map((item) => item.path)) });

/** The next page of a folder merged into what is shown; with "select all", its items join the selection. */
function nextPage(context: ExplorerContext, page: FsListing): Partial<ExplorerContext> {
  const fresh = page.items.filter((item) => !context.listedPaths.has(item.path));
  for (const item of fresh) context.listedPaths.add(item.path);
  const items = mergePage(context.listing?.items ?? [], fresh, context.sort);
  const selection = context.allSelected ? context.selection.concat(fresh.map((item) => item.path)) : context.selection;
  return { listing: { ...page, items }, selection };
}

/** Nothing selected, nothing waiting for the selection. */
const unselected = { selection: [], anchor: undefined, allSelected: false, pendingDialog: undefined } satisfies Partial<ExplorerContext>;

const shownPaths = (context: ExplorerContext) => (context.listing?.items ?? []).map((item) => item.path);

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

function failureOf(error: unknown): ExplorerFailure {
  const { status, message } = error as { status?: number; message?: string };
  return { status: status ?? 0, message: message ?? '' };
}

/**
 * The mount explorer: which folder is shown and how (view, sort), what is selected, which dialog is open.
 * Listing a folder is the provided `listFolder` actor; the page renders the context and sends events. Tags:
 * `busy` while listing, `error` when the folder could not be listed, `ready` with a listing (and `paging` while more
 * of it is coming).
 */
export const explorerMachine = setup({
  types: {
    context: {} as ExplorerContext,
    events: {} as ExplorerEvent,
    input: {} as ExplorerInput,
  },
  actors: {
    listFolder: fromPromise<FsListing, { path: string; refresh: boolean }>(() => Promise.reject(new Error('listFolder not provided'))),
    /** The page of the folder from `offset`, when the first answer said there is more (`nextOffset`). */
    listMore: fromPromise<FsListing, { path: string; offset: number }>(() => Promise.reject(new Error('listMore not provided'))),
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
    listedPaths: new Set(),
    selection: [],
    allSelected: false,
    dialog: null,
    refresh: false,
  }),
  initial: 'loading',
  on: {
    'explorer.open': {
      target: '.loading',
      actions: assign(({ event }) => ({ path: asFolder(event.path), ...unselected, focused: undefined, dialog: null })),
    },
    'explorer.refresh': { target: '.loading', actions: assign({ refresh: true }) },
    'folder.changed': { target: '.loading', actions: assign({ refresh: true, dialog: null }) },
    'explorer.view': {
      actions: [assign({ view: ({ event }) => event.view }), { type: 'saveView', params: ({ event }) => ({ view: event.view }) }],
    },
    'explorer.sort': {
      actions: assign(({ context, event }) => {
        const sort: ExplorerSort = { key: event.key, direction: context.sort.key === event.key && context.sort.direction === 'asc' ? 'desc' : 'asc' };
        return { sort, listing: context.listing && { ...context.listing, items: sortItems(context.listing.items, sort) } };
      }),
    },
    'dialog.open': { actions: assign({ dialog: ({ event }) => event.dialog }) },
    'dialog.close': { actions: assign({ dialog: null, pendingDialog: undefined }) },
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
              ...firstPage(event.output, context.sort),
              allSelected: false,
              pendingDialog: undefined,
              failure: undefined,
              pageFailure: undefined,
              refresh: false,
              selection: context.selection.filter((path) => present.has(path)),
              focused: context.focused !== undefined && present.has(context.focused) ? context.focused : undefined,
            };
          }),
        },
        onError: {
          target: 'failed',
          actions: assign(({ event }) => ({ listing: undefined, refresh: false, failure: failureOf(event.error) })),
        },
      },
    },
    ready: {
      tags: ['ready'],
      initial: 'paging',
      states: {
        // The rest of a large folder, page by page, while the first rows are already shown and usable.
        paging: {
          tags: ['paging'],
          always: { guard: ({ context }) => context.listing?.nextOffset == null, target: 'complete' },
          invoke: {
            src: 'listMore',
            input: ({ context }) => ({ path: context.path, offset: context.listing?.nextOffset ?? 0 }),
            onDone: { target: 'paging', reenter: true, actions: assign(({ context, event }) => nextPage(context, event.output)) },
            onError: { target: 'complete', actions: assign({ pageFailure: ({ event }) => failureOf(event.error) }) },
          },
          on: {
            // Delete, copy or move of "select all" before the rest has arrived waits for it, then takes every item.
            'dialog.open': {
              guard: ({ context, event }) => context.allSelected && (event.dialog.kind === 'delete' || event.dialog.kind === 'copy' || event.dialog.kind === 'move'),
              actions: assign({ pendingDialog: ({ event }) => event.dialog.kind as ExplorerContext['pendingDialog'] }),
            },
          },
        },
        complete: {
          entry: assign(({ context }) =>
            context.pendingDialog ? { dialog: { kind: context.pendingDialog, paths: context.selection }, pendingDialog: undefined } : {},
          ),
        },
      },
      on: {
        'selection.click': { actions: assign(({ context, event }) => ({ ...clicked(context, event), allSelected: false, pendingDialog: undefined })) },
        'selection.all': { actions: assign({ selection: ({ context }) => shownPaths(context), allSelected: true }) },
        'selection.clear': { actions: assign(unselected) },
        'focus.move': { actions: assign(({ context, event }) => ({ ...moved(context, event), ...(event.extend && { allSelected: false, pendingDialog: undefined }) })) },
        'focus.set': { actions: assign({ focused: ({ event }) => event.path }) },
      },
    },
    failed: { tags: ['error'] },
  },
});
