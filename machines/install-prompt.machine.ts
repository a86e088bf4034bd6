import { assign, fromCallback, fromPromise, setup } from 'xstate';

/** The prompt's conditions are checked every 5 s; "later" hides it for 7 days. */
export const INSTALL_PROMPT_CHECK_INTERVAL_MS = 5_000;
export const INSTALL_PROMPT_SNOOZE_MS = 7 * 24 * 60 * 60 * 1000;

/** What the person chose in the browser's own install dialog. */
export type InstallOutcome = 'accepted' | 'dismissed';

export type InstallPromptEvent =
  /** The browser offers installation (`beforeinstallprompt`). */
  | { type: 'install.offered' }
  /** The app got installed, by this prompt or by the browser's own menu (`appinstalled`). */
  | { type: 'install.completed' }
  | { type: 'install.accept' }
  | { type: 'install.later' }
  /** The person did something on the site (a click, a tap, a key): only then may the banner appear. */
  | { type: 'user.engaged' };

export interface InstallPromptInput {
  /** When "later" was last chosen (ms since the epoch), from storage. */
  dismissedAt?: number;
  /** Already running as an installed app (display-mode standalone). */
  installed?: boolean;
}

export interface InstallPromptContext {
  /** The browser has an unused installation offer. */
  offered: boolean;
  /** The person has done something on the site in this visit: the banner never greets someone unasked. */
  engaged: boolean;
  dismissedAt?: number;
  installed: boolean;
}

/** Is a "later" given at `dismissedAt` still in force at `now`? */
export const isSnoozed = (dismissedAt: number | undefined, now: number) =>
  dismissedAt !== undefined && now >= dismissedAt && now - dismissedAt < INSTALL_PROMPT_SNOOZE_MS;

/** Stores the time `snooze` just recorded. */
const persistDismissal = {
  type: 'persistDismissal',
  params: ({ context }: { context: InstallPromptContext }) => ({ at: context.dismissedAt ?? Date.now() }),
} as const;

/**
 * The install banner. Hidden until the browser offers installation and the person has done something on the site
 * (`user.engaged`: nothing appears before that); while hidden it re-checks every 5 s, so a
 * "later" that has run out brings the banner back by itself. Install asks the browser (`promptInstall`, which
 * resolves with the person's choice); later — in the banner or in the browser's dialog — is remembered
 * (`persistDismissal`) for 7 days. `browserInstall` reports the browser's offers and installs.
 * Tags: `visible` while the banner shows, `busy` while the browser's dialog is open.
 */
export const installPromptMachine = setup({
  types: {
    context: {} as InstallPromptContext,
    events: {} as InstallPromptEvent,
    input: {} as InstallPromptInput,
  },
  actors: {
    browserInstall: fromCallback<InstallPromptEvent>(() => () => {}),
    promptInstall: fromPromise<InstallOutcome>(async () => 'dismissed'),
  },
  actions: {
    persistDismissal: (_, _params: { at: number }) => {},
    rememberOffer: assign({ offered: true }),
    /** The browser's offer can be used once; a new one comes with the next `install.offered`. */
    forgetOffer: assign({ offered: false }),
    /** "Later" (in the banner or the browser's dialog): from now, for 7 days; `persistDismissal` follows. */
    snooze: assign({ dismissedAt: () => Date.now() }),
    markInstalled: assign({ installed: true }),
    markEngaged: assign({ engaged: true }),
  },
  guards: {
    canShow: ({ context }) => context.engaged && context.offered && !isSnoozed(context.dismissedAt, Date.now()),
    mayShowOnOffer: ({ context }) => context.engaged && !isSnoozed(context.dismissedAt, Date.now()),
    accepted: (_, params: { outcome: InstallOutcome }) => params.outcome === 'accepted',
    isInstalled: ({ context }) => context.installed,
  },
  delays: {
    checkInterval: INSTALL_PROMPT_CHECK_INTERVAL_MS,
  },
}).createMachine({
  id: 'installPrompt',
  context: ({ input }) => ({ offered: false, engaged: false, dismissedAt: input.dismissedAt, installed: input.installed ?? false }),
  invoke: { src: 'browserInstall' },
  initial: 'starting',
  on: {
    'install.offered': { actions: 'rememberOffer' },
    'install.completed': { target: '.installed', actions: 'markInstalled' },
    'user.engaged': { actions: 'markEngaged' },
  },
  states: {
    starting: {
      always: [{ guard: 'isInstalled', target: 'installed' }, { target: 'hidden' }],
    },
    hidden: {
      on: {
        'install.offered': [
          { guard: 'mayShowOnOffer', target: 'visible', actions: 'rememberOffer' },
          { actions: 'rememberOffer' },
        ],
        'user.engaged': [
          { guard: ({ context }) => context.offered && !isSnoozed(context.dismissedAt, Date.now()), target: 'visible', actions: 'markEngaged' },
          { actions: 'markEngaged' },
        ],
      },
      after: {
        checkInterval: [{ guard: 'canShow', target: 'visible' }, { target: 'hidden', reenter: true }],
      },
    },
    visible: {
      tags: ['visible'],
      on: {
        'install.accept': 'installing',
        'install.later': { target: 'hidden', actions: ['snooze', persistDismissal] },
      },
    },
    installing: {
      tags: ['visible', 'busy'],
      invoke: {
        src: 'promptInstall',
        onDone: [
          {
            guard: { type: 'accepted', params: ({ event }) => ({ outcome: event.output }) },
            target: 'installed',
            actions: ['forgetOffer', 'markInstalled'],
          },
          { target: 'hidden', actions: ['forgetOffer', 'snooze', persistDismissal] },
        ],
        onError: { target: 'hidden', actions: 'forgetOffer' },
      },
    },
    installed: {},
  },
});
