import { createActor, fromCallback, fromPromise, type Actor, type ActorOptions, type AnyActorLogic } from 'xstate';
import { authMachine, type StoredCredentials } from '../../machines/auth.machine';
import { themeMachine, type ThemeEvent } from '../../machines/theme.machine';
import { login, logout, secondStepCode, testApiKey, validateAdminToken } from '../lib/api/auth';
import { secondStepPasskey } from '../lib/api/two-factor';
import { whenSettled } from '../lib/idle';
import { localStore, STORAGE_KEYS } from '../lib/storage';
import { createPwaActors } from './pwa-actors';
import { readStoredCredentials, storedThemeMode } from './stored-state';
import type { TaskManager } from './tasks';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function persistCredentials(credentials: StoredCredentials) {
  localStore.set(STORAGE_KEYS.adminToken, credentials.adminToken);
  localStore.set(STORAGE_KEYS.apiKey, credentials.apiKey);
  localStore.set(
    STORAGE_KEYS.apiKeyPermissions,
    credentials.permissions ? JSON.stringify(credentials.permissions) : undefined,
  );
  localStore.set(STORAGE_KEYS.apiKeyBasicPath, credentials.basicPath);
}

/** The app-wide actors, with their real side effects (storage, DOM, API) provided. */
export function createAppActors(inspect?: ActorOptions<AnyActorLogic>['inspect']) {
  const theme = createActor(
    themeMachine.provide({
      actions: {
        persistMode: (_, { mode }) => localStore.set(STORAGE_KEYS.themeMode, mode),
        applyTheme: (_, { theme: applied }) => {
          document.documentElement.dataset.theme = applied;
        },
      },
      actors: {
        systemPreference: fromCallback<ThemeEvent>(({ sendBack }) => {
          const query = window.matchMedia(DARK_QUERY);
          const listener = (event: MediaQueryListEvent) => sendBack({ type: 'theme.systemChanged', dark: event.matches });
          query.addEventListener('change', listener);
          return () => query.removeEventListener('change', listener);
        }),
      },
    }),
    {
      input: {
        mode: storedThemeMode(),
        systemDark: window.matchMedia(DARK_QUERY).matches,
      },
      inspect,
    },
  );

  const auth = createActor(
    authMachine.provide({
      actions: {
        persist: (_, credentials) => persistCredentials(credentials),
        revokeSession: (_, { token }) => void logout(token),
      },
      actors: {
        login: fromPromise(({ input }) => login(input)),
        secondStepCode: fromPromise(({ input }) => secondStepCode(input)),
        secondStepPasskey: fromPromise(({ input }) => secondStepPasskey(input)),
        testApiKey: fromPromise(({ input }) => testApiKey(input.apiKey)),
        validateAdminToken: fromPromise(({ input }) => validateAdminToken(input.token)),
      },
    }),
    { input: readStoredCredentials(), inspect },
  );

  theme.start();
  auth.start();

  // The task manager's code (its machines, the transfer engine's client) is no part of a first load: a page that
  // shows tasks loads it, and for a signed-in user it loads once the page has settled, so that the journal's
  // unfinished uploads come back without a visit to such a page.
  let taskManager: Promise<TaskManager> | undefined;
  const tasks = () =>
    (taskManager ??= import('./tasks').then(
      ({ createTaskManager }) => createTaskManager(auth, inspect),
      (error: unknown) => {
        taskManager = undefined; // its code could not be loaded this time (offline, a new deploy): try again later
        throw error;
      },
    ));
  whenSignedIn(auth, () => whenSettled(() => void tasks().catch(() => undefined)));

  return { theme, auth, tasks, ...createPwaActors(auth, inspect) };
}

/** Runs `task` once someone is signed in: now if they are, else at their sign-in. */
export function whenSignedIn(auth: Actor<typeof authMachine>, task: () => void) {
  if (auth.getSnapshot().hasTag('signedIn')) return task();
  const watch = auth.subscribe((snapshot) => {
    if (!snapshot.hasTag('signedIn')) return;
    watch.unsubscribe();
    task();
  });
}

export type AppActors = ReturnType<typeof createAppActors>;
