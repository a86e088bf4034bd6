import { assign, fromCallback, setup } from 'xstate';

export type ConnectivityEvent = { type: 'connectivity.online' } | { type: 'connectivity.offline' };

export interface ConnectivityInput {
  /** The browser's opinion at start (`navigator.onLine`). */
  online: boolean;
}

/**
 * Online or offline, as the browser reports it: `browserConnectivity` turns its online and offline events into
 * machine events. Coming back online reloads the user's preferences (`reloadPreferences`).
 * Tags: `offline` while offline (the shell shows its "offline mode" badge).
 */
export const connectivityMachine = setup({
  types: {
    context: {} as ConnectivityInput,
    events: {} as ConnectivityEvent,
    input: {} as ConnectivityInput,
  },
  actors: {
    browserConnectivity: fromCallback<ConnectivityEvent>(() => () => {}),
  },
  actions: {
    reloadPreferences: () => {},
  },
  guards: {
    startsOnline: ({ context }) => context.online,
  },
}).createMachine({
  id: 'connectivity',
  context: ({ input }) => input,
  invoke: { src: 'browserConnectivity' },
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'startsOnline', target: 'online' }, { target: 'offline' }],
    },
    online: {
      entry: assign({ online: true }),
      on: { 'connectivity.offline': 'offline' },
    },
    offline: {
      tags: ['offline'],
      entry: assign({ online: false }),
      on: { 'connectivity.online': { target: 'online', actions: 'reloadPreferences' } },
    },
  },
});
