import { useActorRef, useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { fromPromise } from 'xstate';
import type { FsListing } from '../../../contract/fs';
import { explorerMachine, type ExplorerView } from '../../../machines/explorer.machine';
import { listFolder } from '../../lib/api/fs';
import { nextTask } from '../../lib/idle';
import { localStore, STORAGE_KEYS } from '../../lib/storage';

const savedView = (): ExplorerView => (localStore.get(STORAGE_KEYS.explorerView) === 'grid' ? 'grid' : 'list');

/**
 * A folder comes in pages: a small first one, so that its first rows show at once, then larger ones, each small
 * enough to be parsed, checked, merged and kept offline without holding the page up (a long task of 50 ms) on a
 * slow or busy machine: 5,000 items cost up to 100 ms there (issue 44, bench/README.md "big-folder").
 */
const FIRST_PAGE = 500;
const NEXT_PAGES = 2000;

/** A page is read and checked in one task, merged and drawn in the next: neither adds to the other's length. */
async function inTaskOfItsOwn(page: Promise<FsListing>): Promise<FsListing> {
  const listed = await page;
  await nextTask();
  return listed;
}

const explorerLogic = explorerMachine.provide({
  actors: {
    listFolder: fromPromise(({ input, signal }) => inTaskOfItsOwn(listFolder(input.path, { refresh: input.refresh, signal, page: { offset: 0, limit: FIRST_PAGE } }))),
    listMore: fromPromise(({ input, signal }) => inTaskOfItsOwn(listFolder(input.path, { signal, page: { offset: input.offset, limit: NEXT_PAGES } }))),
  },
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
