import { assign, fromCallback, setup } from 'xstate';

/** If the new version has not taken control by then, reload anyway (the prompt comes back if it still waits). */
export const UPDATE_ACTIVATION_TIMEOUT_MS = 10_000;

export type UpdatePromptEvent =
  /** A new service worker is installed and waiting for this page to let it take over. */
  | { type: 'update.ready' }
  /** The new service worker now controls this page. */
  | { type: 'update.activated' }
  | { type: 'update.accept' }
  | { type: 'update.later' };

export interface UpdatePromptContext {
  /** The new version already controls this page (another tab said "update now"): only a reload is left. */
  takenOver: boolean;
}

/**
 * The "new version" banner. `serviceWorker` registers the worker for the machine's whole life and reports a
 * waiting version (`update.ready`) and a change of controller (`update.activated`). "Update now" tells the waiting
 * worker to skip waiting (`skipWaiting`) and reloads the page once it has taken over (`reload`); "later" hides the
 * banner until a newer version comes.
 * Tags: `visible` while the banner shows, `busy` while the new version is being activated.
 */
export const updatePromptMachine = setup({
  types: {
    context: {} as UpdatePromptContext,
    events: {} as UpdatePromptEvent,
  },
  actors: {
    serviceWorker: fromCallback<UpdatePromptEvent>(() => () => {}),
  },
  actions: {
    skipWaiting: () => {},
    reload: () => {},
    noteTakeOver: assign({ takenOver: true }),
    newVersion: assign({ takenOver: false }),
  },
  guards: {
    takenOver: ({ context }) => context.takenOver,
  },
  delays: {
    activationTimeout: UPDATE_ACTIVATION_TIMEOUT_MS,
  },
}).createMachine({
  id: 'updatePrompt',
  context: { takenOver: false },
  invoke: { src: 'serviceWorker' },
  initial: 'idle',
  states: {
    idle: {
      on: { 'update.ready': { target: 'available', actions: 'newVersion' } },
    },
    available: {
      tags: ['visible'],
      on: {
        'update.accept': [{ guard: 'takenOver', target: 'reloading' }, { target: 'activating' }],
        'update.later': 'dismissed',
        'update.activated': { actions: 'noteTakeOver' },
        'update.ready': { actions: 'newVersion' }, // a newer one still: it waits again
      },
    },
    activating: {
      tags: ['visible', 'busy'],
      entry: 'skipWaiting',
      on: { 'update.activated': 'reloading' },
      after: { activationTimeout: 'reloading' },
    },
    reloading: {
      tags: ['busy'],
      entry: 'reload',
    },
    dismissed: {
      on: {
        'update.ready': { target: 'available', actions: 'newVersion' },
        'update.activated': { actions: 'noteTakeOver' },
      },
    },
  },
});
