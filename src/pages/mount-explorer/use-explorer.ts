import { useActorRef, useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { fromPromise } from 'xstate';
import { explorerMachine, type ExplorerView } from '../../../machines/explorer.machine';
import { listFolder } from '../../lib/api/fs';
import { localStore, STORAGE_KEYS } from '../../lib/storage';

const savedView = (): ExplorerView => (localStore.get(STORAGE_KEYS.explorerView) === 'grid' ? 'grid' : 'list');

const explorerLogic = explorerMachine.provide({
  actors: { listFolder: fromPromise(({ input, signal }) => listFolder(input.path, { refresh: input.refresh, signal })) },
  actions: {
    saveView: (_, { view }) => localStore.set(STORAGE_KEYS.explorerView, view),
  },
});

/** The explorer machine for this page; the URL is the source of the folder, so it follows `folder`. */
export function useExplorer(folder: string) {
  const actor = useActorRef(explorerLogic, { input: { path: folder, view: savedView() } });
  useEffect(() => {
    if (actor.getSnapshot().context.path !== folder) actor.send({ type: 'explorer.open', path: folder });
  }, [actor, folder]);
  const snapshot = useSelector(actor, (state) => state);
  return { actor, snapshot, send: actor.send };
}

export type ExplorerActor = ReturnType<typeof useExplorer>['actor'];
