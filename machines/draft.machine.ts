import { assign, fromPromise, setup } from 'xstate';

export const DRAFT_AUTOSAVE_MS = 30_000;
export const DRAFT_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export interface Draft {
  content: string;
  /** epoch milliseconds */
  savedAt: number;
}

export interface DraftContext {
  content: string;
  /** A stored draft the user may restore. */
  offer?: Draft;
  lastSavedAt?: number;
  changedWhileSaving: boolean;
  /** Back from a login the editor was left for: the stored draft is this page's own text, put back at once. */
  resume: boolean;
}

export type DraftEvent =
  | { type: 'draft.changed'; content: string }
  | { type: 'draft.restore' }
  | { type: 'draft.discard' }
  /** The content was shared or cleared: nothing left to keep. */
  | { type: 'draft.clear' }
  /** The page is about to be left (to log in): save now what the next 30 s tick would have. */
  | { type: 'draft.flush' };

/** A draft is worth offering when it holds text and is younger than 24 hours. */
export const isRestorable = (draft: Draft | undefined, now: number): draft is Draft =>
  draft !== undefined && draft.content.trim().length > 0 && now - draft.savedAt < DRAFT_MAX_AGE_MS;

/**
 * The editor's draft: on start, look for a stored draft and offer it; while editing, save every 30 s when
 * something changed. Storage (IndexedDB) and the clock are provided by the app; tests give fakes.
 */
export const draftMachine = setup({
  types: {
    context: {} as DraftContext,
    events: {} as DraftEvent,
    input: {} as { resume?: boolean },
  },
  actors: {
    loadDraft: fromPromise<Draft | undefined>(async () => undefined),
    saveDraft: fromPromise<number, { content: string }>(async () => Date.now()),
    deleteDraft: fromPromise<void>(async () => {}),
  },
  actions: {
    /** Puts restored text into the editor. */
    fillEditor: (_, _params: { content: string }) => {},
  },
  delays: { autosave: DRAFT_AUTOSAVE_MS },
  guards: {
    restorable: ({ event }) => isRestorable((event as { output?: Draft }).output, Date.now()),
    resuming: ({ context, event }) => context.resume && isRestorable((event as { output?: Draft }).output, Date.now()),
    /** Text typed before editing began (while the stored draft was looked up or offered) still needs saving. */
    typedMeanwhile: ({ context }) => context.content.trim().length > 0,
  },
}).createMachine({
  id: 'draft',
  context: ({ input }) => ({ content: '', changedWhileSaving: false, resume: input.resume ?? false }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadDraft',
        onDone: [
          {
            guard: 'resuming',
            target: 'editing',
            actions: [
              assign({ content: ({ event }) => event.output?.content ?? '' }),
              { type: 'fillEditor', params: ({ event }) => ({ content: event.output?.content ?? '' }) },
            ],
          },
          { guard: 'restorable', target: 'offering', actions: assign({ offer: ({ event }) => event.output }) },
          { guard: 'typedMeanwhile', target: 'editing.dirty' },
          { target: 'editing' },
        ],
        onError: [{ guard: 'typedMeanwhile', target: 'editing.dirty' }, { target: 'editing' }],
      },
      on: { 'draft.changed': { actions: assign({ content: ({ event }) => event.content }) } },
    },
    offering: {
      on: {
        'draft.restore': {
          target: 'editing.dirty',
          actions: [
            assign({ content: ({ context }) => context.offer?.content ?? '' }),
            { type: 'fillEditor', params: ({ context }) => ({ content: context.offer?.content ?? '' }) },
            assign({ offer: undefined }),
          ],
        },
        'draft.discard': [
          { guard: 'typedMeanwhile', target: 'editing.dirty', actions: assign({ offer: undefined }) },
          { target: 'editing', actions: assign({ offer: undefined }) },
        ],
        'draft.changed': { actions: assign({ content: ({ event }) => event.content }) },
        // Text typed instead of restoring replaces the offered draft.
        'draft.flush': { guard: 'typedMeanwhile', target: 'editing.saving', actions: assign({ offer: undefined }) },
      },
    },
    editing: {
      initial: 'clean',
      on: {
        'draft.changed': { target: '.dirty', actions: assign({ content: ({ event }) => event.content }) },
        'draft.clear': { target: '.clearing', actions: assign({ content: '' }) },
      },
      states: {
        clean: {},
        dirty: {
          after: { autosave: 'saving' },
          // Typing does not postpone the save: re-entering would restart the 30 s timer forever.
          on: {
            'draft.changed': { actions: assign({ content: ({ event }) => event.content }) },
            'draft.flush': 'saving',
          },
        },
        saving: {
          tags: ['saving'],
          entry: assign({ changedWhileSaving: false }),
          invoke: {
            src: 'saveDraft',
            input: ({ context }) => ({ content: context.content }),
            onDone: [
              // Text typed during the save is not in it: stay dirty so the next tick saves it.
              {
                guard: ({ context }) => context.changedWhileSaving,
                target: 'dirty',
                actions: assign({ lastSavedAt: ({ event }) => event.output }),
              },
              { target: 'clean', actions: assign({ lastSavedAt: ({ event }) => event.output }) },
            ],
            onError: 'dirty',
          },
          on: {
            'draft.changed': {
              actions: assign({ content: ({ event }) => event.content, changedWhileSaving: true }),
            },
          },
        },
        clearing: {
          invoke: { src: 'deleteDraft', onDone: 'clean', onError: 'clean' },
        },
      },
    },
  },
});
