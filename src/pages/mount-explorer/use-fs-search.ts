import { useActorRef, useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { fromPromise } from 'xstate';
import { fsSearchMachine } from '../../../machines/fs-search.machine';
import { searchFs } from '../../lib/api/search';

const searchLogic = fsSearchMachine.provide({
  actors: { search: fromPromise(({ input, signal }) => searchFs(input, signal)) },
});

/** The explorer's search below `folder`; showing another folder ends it. */
export function useFsSearch(folder: string) {
  const actor = useActorRef(searchLogic, { input: { path: folder } });
  useEffect(() => {
    if (actor.getSnapshot().context.path !== folder) actor.send({ type: 'search.folder', path: folder });
  }, [actor, folder]);
  const snapshot = useSelector(actor, (state) => state);
  /** Something is typed: the results stand in for the folder's listing. */
  const active = snapshot.context.query.trim() !== '';
  return { snapshot, send: actor.send, active };
}

export type FsSearch = ReturnType<typeof useFsSearch>;
