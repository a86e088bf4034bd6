import { createContext, use, useCallback, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { AppActors } from './create-actors';
import type { TaskManager } from './tasks';

/**
 * The app's actors (XState, its machines, their side effects) load apart from the page's first render: a visitor
 * of a share link sees the share without waiting for them (main.tsx loads them once that page has settled, at
 * once elsewhere). A component that needs them suspends until they are there; the shell's own parts show what the
 * browser stored meanwhile.
 */
export interface ActorsLoader {
  /** Loads and starts them (once); later calls answer the same promise. */
  load(): Promise<AppActors>;
  /** The actors once loaded. */
  current(): AppActors | undefined;
  subscribe(listener: () => void): () => void;
}

export function createActorsLoader(create: () => Promise<AppActors>): ActorsLoader {
  let loading: Promise<AppActors> | undefined;
  let loaded: AppActors | undefined;
  const listeners = new Set<() => void>();
  return {
    load: () =>
      (loading ??= create().then(
        (actors) => {
          loaded = actors;
          listeners.forEach((listener) => listener());
          return actors;
        },
        (error: unknown) => {
          loading = undefined; // their code could not be loaded this time (offline, a new deploy): try again later
          throw error;
        },
      )),
    current: () => loaded,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const ActorsContext = createContext<ActorsLoader | null>(null);

export function ActorsProvider({ actors, children }: { actors: ActorsLoader; children: ReactNode }) {
  return <ActorsContext.Provider value={actors}>{children}</ActorsContext.Provider>;
}

export function useActorsLoader(): ActorsLoader {
  const loader = useContext(ActorsContext);
  if (!loader) throw new Error('useActorsLoader needs <ActorsProvider>');
  return loader;
}

/** The actors once loaded, else undefined, without asking for them: for what can wait (prompts, badges). */
export function useLoadedActors(): AppActors | undefined {
  const loader = useActorsLoader();
  return useSyncExternalStore(loader.subscribe, loader.current);
}

/** The app's actors; the component suspends while they load (and makes them load). */
export function useAppActors(): AppActors {
  const loader = useActorsLoader();
  return useLoadedActors() ?? use(loader.load());
}

/** The app's task manager; the component suspends while its code loads (the first time only). */
export function useTaskManager(): TaskManager {
  return use(useAppActors().tasks());
}

interface Subscribable<Snapshot> {
  subscribe(listener: () => void): { unsubscribe(): void };
  getSnapshot(): Snapshot;
}

/**
 * `select` of an actor's snapshot, of undefined while the actor has not loaded: for the shell, which renders
 * before XState has loaded. (@xstate/react's useSelector would bring XState itself into the first load: the
 * module imports its runtime.) `select` answers a primitive, or the same object while nothing changed.
 */
export function useSnapshotValue<Snapshot, T>(
  actor: Subscribable<Snapshot> | undefined,
  select: (snapshot: Snapshot | undefined) => T,
): T {
  const subscribe = useCallback(
    (listener: () => void) => {
      if (!actor) return () => {};
      const subscription = actor.subscribe(listener);
      return () => subscription.unsubscribe();
    },
    [actor],
  );
  return useSyncExternalStore(subscribe, () => select(actor?.getSnapshot()));
}
