import { assign, fromCallback, setup } from 'xstate';

import type { ThemeMode } from './theme-modes';

export type EffectiveTheme = 'light' | 'dark';

export type ThemeEvent = { type: 'theme.toggle' } | { type: 'theme.systemChanged'; dark: boolean };

export interface ThemeInput {
  mode: ThemeMode;
  systemDark: boolean;
}

/**
 * One state per mode; the toggle cycles auto → light → dark → auto. The system preference is watched for the
 * machine's whole life so that auto follows it live. `persistMode`, `applyTheme` and `systemPreference` are
 * provided by the app (localStorage, <html>, matchMedia); tests provide fakes.
 */
export const themeMachine = setup({
  types: {
    context: {} as ThemeInput,
    events: {} as ThemeEvent,
    input: {} as ThemeInput,
  },
  actions: {
    persistMode: (_, _params: { mode: ThemeMode }) => {},
    applyTheme: (_, _params: { theme: EffectiveTheme }) => {},
    rememberSystem: assign({ systemDark: (_, params: { dark: boolean }) => params.dark }),
  },
  actors: {
    systemPreference: fromCallback<ThemeEvent>(() => () => {}),
  },
  guards: {
    startsIn: ({ context }, params: { mode: ThemeMode }) => context.mode === params.mode,
  },
}).createMachine({
  id: 'theme',
  context: ({ input }) => input,
  invoke: { src: 'systemPreference' },
  on: {
    'theme.systemChanged': {
      actions: { type: 'rememberSystem', params: ({ event }) => ({ dark: event.dark }) },
    },
  },
  initial: 'starting',
  states: {
    starting: {
      always: [
        { guard: { type: 'startsIn', params: { mode: 'light' } }, target: 'light' },
        { guard: { type: 'startsIn', params: { mode: 'dark' } }, target: 'dark' },
        { target: 'auto' },
      ],
    },
    auto: {
      entry: { type: 'applyTheme', params: ({ context }) => ({ theme: context.systemDark ? 'dark' : 'light' }) },
      on: {
        'theme.toggle': { target: 'light', actions: { type: 'persistMode', params: { mode: 'light' } } },
        'theme.systemChanged': {
          actions: [
            { type: 'rememberSystem', params: ({ event }) => ({ dark: event.dark }) },
            { type: 'applyTheme', params: ({ event }) => ({ theme: event.dark ? 'dark' : 'light' }) },
          ],
        },
      },
    },
    light: {
      entry: { type: 'applyTheme', params: { theme: 'light' } },
      on: { 'theme.toggle': { target: 'dark', actions: { type: 'persistMode', params: { mode: 'dark' } } } },
    },
    dark: {
      entry: { type: 'applyTheme', params: { theme: 'dark' } },
      on: { 'theme.toggle': { target: 'auto', actions: { type: 'persistMode', params: { mode: 'auto' } } } },
    },
  },
});
