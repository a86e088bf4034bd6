import { useLingui } from '@lingui/react/macro';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { waitFor } from 'xstate';
import { asRequestFailure } from '../../../contract/envelope';
import type { FsItem } from '../../../contract/fs';
import type { FsSearchHit } from '../../../contract/search';
import { useTaskManager } from '../../app/actors';
import type { ZipDestination } from '../../../contract/transfer';
import { crossesMounts, fsCopyTask, fsDeleteTask, fsDirectoryUploadTask, fsDownloadTask, fsUploadTask } from '../../app/explorer-tasks';
import { startServerJob } from '../../app/server-jobs';
import { ConflictPrompts } from '../../components/task-manager/ConflictPrompts';
import { TaskManagerPanel } from '../../components/task-manager/TaskManagerPanel';
import { fileLink } from '../../lib/api/fs';
import { copyText } from '../../lib/clipboard';
import { downloadUrl } from '../../lib/download';
import { formatCount } from '../../lib/format';
import { toasts } from '../../lib/toast';
import { Breadcrumb } from './Breadcrumb';
import { CopyDialog } from './CopyDialog';
import { DeleteDialog, NameDialog } from './dialogs';
import type { PickedFile } from './dropped-files';
import styles from './Explorer.module.css';
import { explorerHref, folderOfLocation, nameOf, parentOf } from './explorer-path';
import { SearchBox, SearchResults } from './ExplorerSearch';
import { ExplorerToolbar, SelectionBar } from './ExplorerToolbar';
import { FolderStatus } from './FolderStatus';
import { ItemList } from './ItemList';
import { PreviewPanel } from './PreviewPanel';
import { selectedOf, type ItemHandlers } from './selection-actions';
import { useExplorer } from './use-explorer';
import { useFsSearch } from './use-fs-search';
import { COMPACT_LAYOUT, useMediaQuery } from './use-media-query';
import { useTasksSettled } from './use-tasks-settled';

/** The explorer of the folder in the URL: toolbar, breadcrumb, items, dialogs, and the preview of `?preview`. */
export function Explorer() {
  const { t, i18n } = useLingui();
  const [location, navigate] = useLocation();
  const params = new URLSearchParams(useSearch());
  const folder = folderOfLocation(location);
  const previewName = params.get('preview') ?? undefined;
  useForcedDarkTheme(params.get('darkMode') ?? params.get('dark'));
  const { actor, snapshot, send } = useExplorer(folder);
  const tasks = useTaskManager();
  const context = snapshot.context;
  const items = useMemo(() => context.listing?.items ?? [], [context.listing]);
  const selected = useMemo(() => selectedOf(items, context.selection), [items, context.selection]);
  const writable = Boolean(context.listing && !context.listing.isVirtual);
  const compact = useMediaQuery(COMPACT_LAYOUT);
  const watch = useTasksSettled(tasks, () => send({ type: 'explorer.refresh' }));
  const search = useFsSearch(folder);
  const searchField = useRef<HTMLInputElement>(null);
  const searchList = useRef<HTMLUListElement>(null);

  const openItem = (item: FsItem) => navigate(item.isDirectory ? explorerHref(item.path) : explorerHref(folder, item.name));
  /** A result opens in place, as a click in its folder would: a folder is shown, a file previewed in its folder. */
  const openHit = (hit: FsSearchHit) => {
    search.send({ type: 'search.clear' });
    navigate(hit.isDirectory ? explorerHref(hit.path) : explorerHref(hit.folder, hit.name));
  };
  const openFolder = (path: string) => {
    search.send({ type: 'search.clear' });
    navigate(explorerHref(path));
  };
  const goUp = () => folder !== '/' && navigate(explorerHref(parentOf(folder)));

  /** An upload's start and end are both told: "Uploading…" gives way to "Uploaded…" (or to where it went wrong). */
  const startUpload = (task: ReturnType<typeof fsUploadTask>, messages: { started: string; done: string; unfinished: string }) => {
    tasks.send({ type: 'tasks.add', task });
    const started = toasts.show('info', messages.started);
    watch([task.id], (status) => {
      toasts.dismiss(started);
      if (status === 'completed') toasts.success(messages.done);
      else if (status !== 'cancelled') toasts.error(messages.unfinished);
    });
  };

  const upload = (files: PickedFile[], into = folder) => {
    if (files.length === 0) return;
    const count = files.length.toLocaleString(i18n.locale);
    startUpload(fsUploadTask(into, files, t`Upload ${count} files to ${into}`), {
      started: t`Uploading ${count} files to ${into}`,
      done: t`Uploaded ${count} files to ${into}`,
      unfinished: t`Not all of the ${count} files reached ${into}: see Tasks`,
    });
  };

  const uploadDirectory = (directory: FileSystemDirectoryHandle) => {
    startUpload(fsDirectoryUploadTask(folder, directory, t`Upload ${directory.name} to ${folder}`), {
      started: t`Uploading ${directory.name} to ${folder}`,
      done: t`Uploaded ${directory.name} to ${folder}`,
      unfinished: t`Not all of ${directory.name} reached ${folder}: see Tasks`,
    });
  };

  const remove = (paths: string[]) => {
    const task = fsDeleteTask(paths.length === 1 ? nameOf(paths[0]!) : t`${paths.length} items`, paths);
    tasks.send({ type: 'tasks.add', task });
    watch([task.id]);
    send({ type: 'dialog.close' });
    send({ type: 'selection.clear' });
  };

  const copy = async (paths: string[], destination: string, operation: 'copy' | 'move') => {
    // A target ending in `/` is the folder each source goes into, by its own name.
    const items = paths.map((sourcePath) => ({ sourcePath, targetPath: destination }));
    let task;
    try {
      // Between mounts the server copies by itself, no byte through this browser, and goes on if the tab closes.
      const label = operation === 'move' ? t`Move to ${destination}` : t`Copy to ${destination}`;
      task = crossesMounts(paths, destination) ? await startServerJob({ type: operation, items, onConflict: 'fail' }, label) : fsCopyTask(label, items, operation);
    } catch (error) {
      toasts.error(asRequestFailure(error).message);
      return;
    }
    tasks.send({ type: 'tasks.add', task });
    watch([task.id]);
    send({ type: 'dialog.close' });
    send({ type: 'selection.clear' });
    toasts.success(operation === 'move' ? t`Moving ${paths.length} items to ${destination}` : t`Copying ${paths.length} items to ${destination}`);
  };

  const copyLink = async (item: FsItem) => {
    try {
      const link = await fileLink(item.path);
      await copyText(link.url);
      toasts.success(t`Link to ${item.name} copied; it works for 7 days`);
    } catch (error) {
      toasts.error(asRequestFailure(error).message);
    }
  };

  /** Several items (or a folder) as one zip: into a file the user picks where the browser can, else a streamed download. */
  const downloadZip = async (picked: FsItem[]) => {
    const name = picked.length === 1 ? `${picked[0]!.name}.zip` : `${nameOf(folder) || 'files'}.zip`;
    let saveTo: ZipDestination = { kind: 'download' };
    const picker = (window as { showSaveFilePicker?: (options: { suggestedName: string }) => Promise<FileSystemFileHandle> }).showSaveFilePicker;
    if (picker) {
      try {
        saveTo = { kind: 'file', handle: await picker({ suggestedName: name }) };
      } catch {
        // The user closed the save dialog, or the browser refused to open it: say so, and nothing starts.
        toasts.show('info', t`Download cancelled`);
        return;
      }
    }
    const items = await everyItemOnceListed(picked);
    if (items.length === 0) return;
    const task = fsDownloadTask(name, items.map((item) => item.path), saveTo);
    tasks.send({ type: 'tasks.add', task });
    toasts.success(t`Downloading ${items.length} items as ${name}`);
  };

  /**
   * What an action started from the toolbar takes: with "select all" while pages still come, every item once the last
   * page is in (the dialogs' actions wait in the machine; a zip picks its file first, while the click still counts).
   */
  const everyItemOnceListed = async (picked: FsItem[]): Promise<FsItem[]> => {
    const now = actor.getSnapshot();
    if (!now.context.allSelected || !now.hasTag('paging')) return picked;
    const listed = await waitFor(actor, (state) => !state.hasTag('paging'), { timeout: Infinity });
    return selectedOf(listed.context.listing?.items ?? [], listed.context.selection).items;
  };

  const download = async (item: FsItem) => {
    try {
      const link = await fileLink(item.path, { expiresIn: 300, forceDownload: true });
      downloadUrl(link.url, item.name);
    } catch (error) {
      toasts.error(asRequestFailure(error).message);
    }
  };

  const handlers: ItemHandlers = {
    send,
    onOpen: openItem,
    onCopyLink: (item) => void copyLink(item),
    onDownload: (item) => void download(item),
    onDownloadZip: (items) => void downloadZip(items),
  };
  // The search's results stand in for the listing: its selection and actions wait until the search ends.
  const selectionBar = selected.items.length > 0 && !search.active && <SelectionBar selected={selected.items} handlers={handlers} compact={compact} />;

  const previewItem = previewName ? items.find((item) => !item.isDirectory && item.name === previewName) : undefined;

  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <h1>{t`Mount explorer`}</h1>
        <TaskManagerPanel manager={tasks} />
        <ConflictPrompts manager={tasks} />
      </header>
      <Breadcrumb folder={folder} />
      {previewItem ? (
        <PreviewPanel
          key={previewItem.path}
          item={previewItem}
          onClose={() => navigate(explorerHref(folder))}
          onSaved={() => send({ type: 'explorer.refresh' })}
          onCopyLink={() => void copyLink(previewItem)}
        />
      ) : (
        <>
          <div className={styles.toolbarSlot}>
            <ExplorerToolbar
              snapshot={snapshot}
              send={send}
              writable={writable}
              selecting={Boolean(selectionBar) && !compact}
              onUpload={upload}
              onUploadDirectory={uploadDirectory}
              searchBox={<SearchBox search={search} field={searchField} results={searchList} />}
            />
            {!compact && selectionBar}
          </div>
          {search.active ? (
            <SearchResults search={search} field={searchField} list={searchList} onOpen={openHit} onOpenFolder={openFolder} />
          ) : snapshot.hasTag('ready') && items.length > 0 ? (
            <>
              <ItemList items={items} selected={selected} context={context} writable={writable} handlers={handlers} onUp={goUp} onDropFiles={upload} />
              <ListingProgress snapshot={snapshot} />
            </>
          ) : (
            <FolderStatus snapshot={snapshot} writable={writable} onUp={goUp} onDropFiles={upload} />
          )}
          {compact && selectionBar}
        </>
      )}
      <ExplorerDialogs folder={folder} context={context} send={send} items={items} onRemove={remove} onCopy={(paths, destination, operation) => void copy(paths, destination, operation)} />
    </div>
  );
}

/** A large folder's listing as its pages arrive, and why the rest is missing when a page failed. */
function ListingProgress({ snapshot }: { snapshot: ReturnType<typeof useExplorer>['snapshot'] }) {
  const { t } = useLingui();
  const { listing, pageFailure } = snapshot.context;
  if (!listing?.total) return null;
  // Drawn again with every page: formatCount needs no Intl.NumberFormat (toLocaleString makes one per call).
  const listed = formatCount(listing.items.length);
  const total = formatCount(listing.total);
  if (pageFailure) {
    return (
      <p role="alert" className={styles.listingProgress}>
        {t`Only ${listed} of ${total} items could be listed (${pageFailure.message}); refresh to try again.`}
      </p>
    );
  }
  if (!snapshot.hasTag('paging')) return null;
  return (
    <p role="status" className={styles.listingProgress}>
      {t`Listing… ${listed} of ${total} items`}
    </p>
  );
}

/** The one dialog the machine has open, if any. */
function ExplorerDialogs({
  folder,
  context,
  send,
  items,
  onRemove,
  onCopy,
}: {
  folder: string;
  context: ReturnType<typeof useExplorer>['snapshot']['context'];
  send: ReturnType<typeof useExplorer>['send'];
  items: FsItem[];
  onRemove: (paths: string[]) => void;
  onCopy: (paths: string[], destination: string, operation: 'copy' | 'move') => void;
}) {
  const dialog = context.dialog;
  const close = () => send({ type: 'dialog.close' });
  const changed = () => send({ type: 'folder.changed' });
  if (!dialog) return null;
  switch (dialog.kind) {
    case 'mkdir':
      return <NameDialog mode="mkdir" folder={folder} onClose={close} onDone={changed} />;
    case 'rename': {
      const item = items.find((candidate) => candidate.path === dialog.path);
      return item ? <NameDialog mode="rename" folder={folder} item={item} onClose={close} onDone={changed} /> : null;
    }
    case 'delete':
      return <DeleteDialog paths={dialog.paths} onClose={close} onConfirm={() => onRemove(dialog.paths)} />;
    case 'copy':
    case 'move':
      return <CopyDialog operation={dialog.kind} paths={dialog.paths} startIn={folder} onClose={close} onChoose={(destination) => onCopy(dialog.paths, destination, dialog.kind)} />;
  }
}

/** `?darkMode=true` (or `dark=1`) shows the page dark whatever the theme, e.g. when embedded in a dark site. */
function useForcedDarkTheme(flag: string | null) {
  const forced = flag === 'true' || flag === '1';
  const [previous] = useState(() => document.documentElement.dataset.theme);
  useEffect(() => {
    if (!forced) return;
    const root = document.documentElement;
    root.dataset.theme = 'dark';
    return () => {
      if (previous) root.dataset.theme = previous;
    };
  }, [forced, previous]);
}
