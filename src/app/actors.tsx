import { i18n } from '@lingui/core';
import { useSelector } from '@xstate/react';
import { createContext, use, useContext, type ReactNode } from 'react';
import { createActor, fromCallback, fromPromise, type Actor, type ActorOptions, type AnyActorLogic } from 'xstate';
import type { Permissions } from '../../contract/auth';
import { authMachine, type StoredCredentials } from '../../machines/auth.machine';
import { isThemeMode, themeMachine, type ThemeEvent } from '../../machines/theme.machine';
import { login, logout, testApiKey, validateAdminToken } from '../lib/api/auth';
import { configureApiClient } from '../lib/api/client';
import { whenSettled } from '../lib/idle';
import { localStore, STORAGE_KEYS } from '../lib/storage';
import { createPwaActors } from './pwa-actors';
import type { TaskManager } from './tasks';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function readStoredCredentials(): StoredCredentials {
  return {
    adminToken: localStore.get(STORAGE_KEYS.adminToken),
    apiKey: localStore.get(STORAGE_KEYS.apiKey),
    permissions: localStore.getJson<Permissions>(STORAGE_KEYS.apiKeyPermissions),
    basicPath: localStore.get(STORAGE_KEYS.apiKeyBasicPath),
  };
}

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
        mode: ((stored) => (isThemeMode(stored) ? stored : 'auto'))(localStore.get(STORAGE_KEYS.themeMode)),
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
        testApiKey: fromPromise(({ input }) => testApiKey(input.apiKey)),
        validateAdminToken: fromPromise(({ input }) => validateAdminToken(input.token)),
      },
    }),
    { input: readStoredCredentials(), inspect },
  );

  configureApiClient({
    credentials: () => {
      const { adminToken, apiKey } = auth.getSnapshot().context;
      return { adminToken, apiKey };
    },
    language: () => i18n.locale,
    onAdminTokenExpired: () => auth.send({ type: 'auth.adminTokenExpired' }),
    onApiKeyInvalid: () => auth.send({ type: 'auth.apiKeyInvalid' }),
  });

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

const ActorsContext = createContext<AppActors | null>(null);

export function ActorsProvider({ actors, children }: { actors: AppActors; children: ReactNode }) {
  return <ActorsContext.Provider value={actors}>{children}</ActorsContext.Provider>;
}

export function useAppActors(): AppActors {
  const actors = useContext(ActorsContext);
  if (!actors) throw new Error('useAppActors needs <ActorsProvider>');
  return actors;
}

/** The app's task manager; the component suspends while its code loads (the first time only). */
export function useTaskManager(): TaskManager {
  return use(useAppActors().tasks());
}

/** Who is signed in, derived from the auth machine's state and tags. */
export function useAuth() {
  const { auth } = useAppActors();
  return useSelector(auth, (snapshot) => ({
    role: snapshot.matches('admin') ? ('admin' as const) : snapshot.matches('apiKey') ? ('apiKey' as const) : null,
    busy: snapshot.hasTag('busy'),
    username: snapshot.context.username,
    keyName: snapshot.context.keyName,
    permissions: snapshot.context.permissions,
    basicPath: snapshot.context.basicPath,
    loginError: snapshot.context.loginError,
    prompt: snapshot.context.prompt,
    hasAdminToken: Boolean(snapshot.context.adminToken),
    send: auth.send,
  }), shallowEqual);
}

function shallowEqual<T extends Record<string, unknown>>(a: T, b: T) {
  return Object.keys(a).every((key) => Object.is(a[key], b[key]));
}
