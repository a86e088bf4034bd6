import { useLingui } from '@lingui/react/macro';
import { FolderPlus, FolderUp, LayoutGrid, List, RefreshCw, Upload, X } from 'lucide-react';
import { useId, useRef, type ReactNode } from 'react';
import type { FsItem } from '../../../contract/fs';
import type { ExplorerEvent } from '../../../machines/explorer.machine';
import { Button } from '../../components/Button';
import { pickedFiles, type PickedFile } from './dropped-files';
import styles from './Explorer.module.css';
import { useSelectionActions, type ItemHandlers } from './selection-actions';
import type { useExplorer } from './use-explorer';

interface ToolbarProps {
  snapshot: ReturnType<typeof useExplorer>['snapshot'];
  send: (event: ExplorerEvent) => void;
  writable: boolean;
  /** Something is selected: on a wide screen the selection's bar covers the folder's actions. */
  selecting: boolean;
  onUpload: (files: PickedFile[]) => void;
  /** A folder picked with the File System Access API: the transfer worker walks it. */
  onUploadDirectory: (directory: FileSystemDirectoryHandle) => void;
  /** The search field, first of the tools at the end. */
  searchBox: ReactNode;
}

/** What can be done in the folder: upload, make a folder, search, refresh, switch the view. */
export function ExplorerToolbar({ snapshot, send, writable, selecting, onUpload, onUploadDirectory, searchBox }: ToolbarProps) {
  const { t } = useLingui();
  const reasonId = useId();
  const files = useRef<HTMLInputElement>(null);
  const folders = useRef<HTMLInputElement>(null);
  const { view } = snapshot.context;
  /**
   * Where the browser can, the folder is picked as a handle and walked by the transfer worker: a folder input hands
   * the page every file of the folder at once, which held Chromium's main thread for seconds at 10,000 files.
   */
  const pickFolder = async () => {
    const picker = (window as { showDirectoryPicker?: () => Promise<FileSystemDirectoryHandle> }).showDirectoryPicker;
    if (!picker) return folders.current?.click();
    try {
      onUploadDirectory(await picker());
    } catch {
      // The user closed the picker.
    }
  };
  const picked = (input: HTMLInputElement | null) => {
    onUpload(pickedFiles(input?.files ?? null));
    if (input) input.value = '';
  };
  // The root lists the mounts themselves: nothing can be written there, and the buttons say why.
  const reason = writable ? undefined : reasonId;

  return (
    <div className={[styles.toolbar, selecting ? styles.selecting : ''].join(' ')} role="toolbar" aria-label={t`Folder actions`}>
      <Button variant="primary" disabled={!writable} aria-describedby={reason} onClick={() => files.current?.click()}>
        <Upload size={16} aria-hidden />
        {t`Upload files`}
      </Button>
      <Button disabled={!writable} aria-describedby={reason} onClick={() => void pickFolder()}>
        <FolderUp size={16} aria-hidden />
        {t`Upload folder`}
      </Button>
      <Button disabled={!writable} aria-describedby={reason} onClick={() => send({ type: 'dialog.open', dialog: { kind: 'mkdir' } })}>
        <FolderPlus size={16} aria-hidden />
        {t`New folder`}
      </Button>
      {!writable && (
        <span id={reasonId} className={styles.disabledReason}>
          {t`Open a mount to upload into it or make a folder.`}
        </span>
      )}
      <span className={styles.toolbarEnd}>
        {searchBox}
        <Button
          variant="ghost"
          size="icon"
          aria-label={t`Refresh`}
          title={t`Refresh`}
          disabled={snapshot.hasTag('busy')}
          onClick={() => send({ type: 'explorer.refresh' })}
        >
          <RefreshCw size={16} aria-hidden />
        </Button>
        <Button
          variant="ghost"
          size="icon"
          aria-label={view === 'list' ? t`Grid view` : t`List view`}
          title={view === 'list' ? t`Grid view` : t`List view`}
          onClick={() => send({ type: 'explorer.view', view: view === 'list' ? 'grid' : 'list' })}
        >
          {view === 'list' ? <LayoutGrid size={16} aria-hidden /> : <List size={16} aria-hidden />}
        </Button>
      </span>
      <input ref={files} type="file" multiple hidden onChange={(event) => picked(event.currentTarget)} aria-label={t`Files to upload`} />
      <input
        ref={folders}
        type="file"
        hidden
        onChange={(event) => picked(event.currentTarget)}
        aria-label={t`Folder to upload`}
        {...{ webkitdirectory: '' }}
      />
    </div>
  );
}

/**
 * The selection's count and actions. On a wide screen it lies over the folder's toolbar; in the compact layout it
 * is a bar at the bottom of the screen. Either way it takes no room of its own, so nothing under a finger or a
 * pointer moves when a selection starts or ends.
 */
export function SelectionBar({ selected, handlers, compact }: { selected: FsItem[]; handlers: ItemHandlers; compact: boolean }) {
  const { t } = useLingui();
  const actions = useSelectionActions(selected, handlers);
  return (
    <div
      className={compact ? styles.selectionBarBottom : styles.selectionBar}
      role="toolbar"
      aria-label={t`Selection actions`}
      // Toasts stack above a bar at the screen's bottom, not over its buttons (Toaster.module.css).
      {...(compact && { 'data-bottom-bar': '' })}
    >
      <Button variant="ghost" size="icon" aria-label={t`Clear selection`} title={t`Clear selection`} onClick={() => handlers.send({ type: 'selection.clear' })}>
        <X size={16} aria-hidden />
      </Button>
      <span className={styles.selectionCount} aria-live="polite">
        {t`${selected.length} selected`}
      </span>
      {actions.map((action) => (
        <Button key={action.id} variant={action.danger ? 'danger' : 'default'} data-action={action.id} onClick={action.run}>
          {action.icon}
          {action.label}
        </Button>
      ))}
    </div>
  );
}
