import { assign, fromPromise, setup } from 'xstate';
import type { FsSearchHit, FsSearchQuery, FsSearchResult, MountIndex } from '../contract/search';

export type SearchKind = 'all' | 'file' | 'folder';
export type SearchOrder = 'best' | 'newest';

export interface FsSearchContext {
  /** What is typed, as typed. */
  query: string;
  /** The folder searched below. */
  path: string;
  kind: SearchKind;
  order: SearchOrder;
  items: FsSearchHit[];
  nextCursor: string | null;
  /** The searched mounts whose index is still being built. */
  incomplete: MountIndex[];
  /** Why the last search or page failed. */
  failure?: string;
}

export type FsSearchEvent =
  | { type: 'search.input'; query: string }
  | { type: 'search.kind'; kind: SearchKind }
  | { type: 'search.order'; order: SearchOrder }
  /** Another folder is shown: the search is over. */
  | { type: 'search.folder'; path: string }
  | { type: 'search.clear' }
  | { type: 'search.more' }
  | { type: 'search.retry' };

/** How long typing must pause before a search is sent. */
export const SEARCH_PAUSE_MS = 200;

/** The request for the context's search, from `cursor` on. */
export function searchRequestOf(context: FsSearchContext, cursor?: string | null): FsSearchQuery {
  return {
    q: context.query.trim(),
    path: context.path,
    order: context.order,
    ...(context.kind !== 'all' && { type: context.kind }),
    ...(cursor && { cursor }),
  };
}

const failureOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const cleared = { items: [], nextCursor: null, incomplete: [], failure: undefined };

/**
 * The explorer's search: typing waits `debounce` for a pause, then searches below the folder shown; a newer input
 * stops the request under way (its signal aborts). Pages after the first are appended. States: `idle` (nothing
 * typed), `waiting`, `searching`, `shown`, `more` (the next page), `failed`; `busy` while a request runs.
 */
export const fsSearchMachine = setup({
  types: {
    context: {} as FsSearchContext,
    events: {} as FsSearchEvent,
    input: {} as { path: string },
  },
  actors: {
    search: fromPromise<FsSearchResult, FsSearchQuery>(() => Promise.reject(new Error('search not provided'))),
  },
  delays: { debounce: SEARCH_PAUSE_MS },
  guards: {
    typed: ({ context }) => context.query.trim() !== '',
    hasMore: ({ context }) => context.nextCursor !== null,
  },
}).createMachine({
  id: 'fsSearch',
  context: ({ input }) => ({ query: '', path: input.path, kind: 'all', order: 'best', ...cleared }),
  initial: 'idle',
  on: {
    'search.input': [
      { guard: ({ event }) => event.query.trim() === '', target: '.idle', actions: assign({ query: ({ event }) => event.query, ...cleared }) },
      { target: '.waiting', reenter: true, actions: assign({ query: ({ event }) => event.query }) },
    ],
    'search.kind': [
      { guard: 'typed', target: '.searching', reenter: true, actions: assign({ kind: ({ event }) => event.kind }) },
      { actions: assign({ kind: ({ event }) => event.kind }) },
    ],
    'search.order': [
      { guard: 'typed', target: '.searching', reenter: true, actions: assign({ order: ({ event }) => event.order }) },
      { actions: assign({ order: ({ event }) => event.order }) },
    ],
    'search.folder': { target: '.idle', actions: assign({ path: ({ event }) => event.path, query: '', ...cleared }) },
    'search.clear': { target: '.idle', actions: assign({ query: '', ...cleared }) },
  },
  states: {
    idle: {},
    waiting: { after: { debounce: 'searching' } },
    searching: {
      tags: ['busy'],
      invoke: {
        src: 'search',
        input: ({ context }) => searchRequestOf(context),
        onDone: {
          target: 'shown',
          actions: assign(({ event }) => ({
            items: event.output.items,
            nextCursor: event.output.nextCursor,
            incomplete: event.output.incomplete,
            failure: undefined,
          })),
        },
        onError: { target: 'failed', actions: assign({ ...cleared, failure: ({ event }) => failureOf(event.error) }) },
      },
    },
    shown: {
      on: { 'search.more': { guard: 'hasMore', target: 'more' } },
    },
    more: {
      tags: ['busy'],
      invoke: {
        src: 'search',
        input: ({ context }) => searchRequestOf(context, context.nextCursor),
        onDone: {
          target: 'shown',
          actions: assign(({ context, event }) => ({
            items: [...context.items, ...event.output.items],
            nextCursor: event.output.nextCursor,
            incomplete: event.output.incomplete,
            failure: undefined,
          })),
        },
        // The results so far stay; the next "Load more" tries the same page again.
        onError: { target: 'shown', actions: assign({ failure: ({ event }) => failureOf(event.error) }) },
      },
    },
    failed: {
      on: { 'search.retry': 'searching' },
    },
  },
});
