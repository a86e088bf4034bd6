import { useCallback, useEffect, useRef, useState } from 'react';
import { asRequestFailure } from '../../../../contract/envelope';
import { SEARCH_PAUSE_MS } from '../../../../machines/fs-search.machine';
import { toasts } from '../../../lib/toast';
import { useResource, type Resource } from '../../../lib/use-resource';
import { useSelection } from '../../../lib/use-selection';

/** One page of a list and how many rows the whole list has. */
export interface ListPage<Item> {
  items: readonly Item[];
  total: number;
}

/** A destructive action waiting for the admin's yes. */
export interface Confirmation {
  title: string;
  description: string;
  confirmLabel: string;
  /** Does the work and announces its success; the list toasts a failure and reloads after a success. */
  run: () => Promise<void>;
}

/** The row the edit dialog is open on; no row when it creates one. */
export interface Editor<Item> {
  item?: Item;
}

interface ManagementListOptions<Item> {
  /** Loads a page (from 1): a list shown whole may ignore the number and answer with all its rows. */
  load: (page: number) => Promise<ListPage<Item> | readonly Item[]>;
  /** Rows per page of a paged list; a list shown whole has none. */
  pageSize?: number;
  /** The rows matching a search, shown whole in place of the pages: a list that has it shows a search field. */
  search?: (query: string) => Promise<readonly Item[]>;
}

export interface ManagementList<Item> {
  resource: Resource<ListPage<Item>>;
  items: readonly Item[];
  total: number;
  page: number;
  pageSize?: number;
  setPage: (page: number) => void;
  /** Whether the list can be searched. */
  searchable: boolean;
  /** What is typed in the search field; the list shows the pages again when it is empty. */
  query: string;
  setQuery: (query: string) => void;
  /** The rows shown are a search's, not a page's. */
  searching: boolean;
  selection: ReturnType<typeof useSelection>;
  /** The last confirmation asked for, kept while its dialog closes so its text does not change under the fade. */
  confirmation?: Confirmation;
  confirming: boolean;
  busy: boolean;
  ask: (confirmation: Confirmation) => void;
  dismiss: () => void;
  confirm: () => Promise<void>;
  /** Runs a change outside the confirmation dialog; resolves whether it succeeded. */
  run: (work: () => Promise<void>) => Promise<boolean>;
  editor?: Editor<Item>;
  openEditor: (item?: Item) => void;
  closeEditor: () => void;
  /** Closes the edit dialog after a save and shows the change (with `message` as a toast when given). */
  editorSaved: (message?: string) => void;
}

const isWholeList = <Item>(answer: ListPage<Item> | readonly Item[]): answer is readonly Item[] => Array.isArray(answer);

const asListPage = <Item>(answer: ListPage<Item> | readonly Item[]): ListPage<Item> =>
  isWholeList(answer) ? { items: answer, total: answer.length } : answer;

/** The state a management page keeps around its table: the page shown, the ticked rows, the confirmation and edit dialogs. */
export function useManagementList<Item>({ load, pageSize, search }: ManagementListOptions<Item>): ManagementList<Item> {
  const [page, setPage] = useState(1);
  const [query, setQuery] = useState('');
  const searchFor = search ? query.trim() : '';
  const resource = useResource(() => (search && searchFor ? search(searchFor).then(asListPage) : load(page).then(asListPage)));
  const { reload } = resource;
  const selection = useSelection();
  const { clear: clearSelection } = selection;
  const [confirmation, setConfirmation] = useState<Confirmation>();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [editor, setEditor] = useState<Editor<Item>>();

  const items = resource.data?.items ?? [];
  const total = resource.data?.total ?? 0;

  // useResource loads once on mount: each later page number must load that page's rows.
  const loadedPage = useRef(page);
  useEffect(() => {
    if (loadedPage.current === page) return;
    loadedPage.current = page;
    reload();
  }, [page, reload]);

  // A search is sent once typing pauses (at once when it is cleared). Ticks on rows no longer shown would make a
  // batch delete reach rows the admin cannot see: they go.
  const [shownQuery, setShownQuery] = useState('');
  useEffect(() => {
    if (shownQuery === searchFor) return;
    const timer = setTimeout(
      () => {
        setShownQuery(searchFor);
        clearSelection();
        reload();
      },
      searchFor ? SEARCH_PAUSE_MS : 0,
    );
    return () => clearTimeout(timer);
  }, [searchFor, shownQuery, reload, clearSelection]);

  // Deleting the last rows of the last page leaves a page past the end: show the new last page instead.
  const lastPage = pageSize ? Math.max(1, Math.ceil(total / pageSize)) : 1;
  useEffect(() => {
    if (resource.status === 'ready' && !shownQuery && page > lastPage) setPage(lastPage);
  }, [resource.status, shownQuery, page, lastPage]);

  const run = useCallback(
    async (work: () => Promise<void>) => {
      try {
        await work();
        reload();
        return true;
      } catch (error) {
        toasts.error(asRequestFailure(error).message);
        return false;
      }
    },
    [reload],
  );

  const confirm = async () => {
    if (!confirmation) return;
    setBusy(true);
    if (await run(confirmation.run)) setConfirming(false);
    setBusy(false);
  };

  return {
    resource,
    items,
    total,
    page,
    pageSize,
    setPage,
    searchable: Boolean(search),
    query,
    setQuery,
    searching: shownQuery !== '',
    selection,
    confirmation,
    confirming,
    busy,
    ask: (next) => {
      setConfirmation(next);
      setConfirming(true);
    },
    dismiss: () => setConfirming(false),
    confirm,
    run,
    editor,
    openEditor: (item) => setEditor({ item }),
    closeEditor: () => setEditor(undefined),
    editorSaved: (message) => {
      setEditor(undefined);
      if (message) toasts.success(message);
      reload();
    },
  };
}
