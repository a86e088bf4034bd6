import { useLingui } from '@lingui/react/macro';
import {
  Copy,
  Download,
  FolderOpen,
  FolderPlus,
  FolderUp,
  LayoutGrid,
  Link2,
  List,
  Pencil,
  RefreshCw,
  Trash2,
  Upload,
  X,
} from 'lucide-react';
import { useRef } from 'react';
import type { FsItem } from '../../../contract/fs';
import type { ExplorerEvent } from '../../../machines/explorer.machine';
import { Button } from '../../components/Button';
import { pickedFiles, type PickedFile } from './dropped-files';
import styles from './Explorer.module.css';
import type { useExplorer } from './use-explorer';

interface ToolbarProps {
  snapshot: ReturnType<typeof useExplorer>['snapshot'];
  send: (event: ExplorerEvent) => void;
  selected: FsItem[];
  writable: boolean;
  onUpload: (files: PickedFile[]) => void;
  /** A folder picked with the File System Access API: the transfer worker walks it. */
  onUploadDirectory: (directory: FileSystemDirectoryHandle) => void;
  onOpen: (item: FsItem) => void;
  onCopyLink: (item: FsItem) => void;
  onDownload: (item: FsItem) => void;
  /** Several items, or a folder: one zip. */
  onDownloadZip: (items: FsItem[]) => void;
}

/** What can be done here: in the folder, or with the selection when there is one. */
export function ExplorerToolbar({ snapshot, send, selected, writable, onUpload, onUploadDirectory, onOpen, onCopyLink, onDownload, onDownloadZip }: ToolbarProps) {
  const { t } = useLingui();
  const files = useRef<HTMLInputElement>(null);
  const folders = useRef<HTMLInputElement>(null);
  const { view } = snapshot.context;
  const one = selected.length === 1 ? selected[0] : undefined;
  const paths = selected.map((item) => item.path);
  const realSelection = selected.length > 0 && selected.every((item) => !item.isVirtual);
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

  return (
    <div className={styles.toolbar} role="toolbar" aria-label={t`Folder actions`}>
      {selected.length === 0 ? (
        <>
          <Button variant="primary" disabled={!writable} onClick={() => files.current?.click()}>
            <Upload size={16} aria-hidden />
            {t`Upload files`}
          </Button>
          <Button disabled={!writable} onClick={() => void pickFolder()}>
            <FolderUp size={16} aria-hidden />
            {t`Upload folder`}
          </Button>
          <Button disabled={!writable} onClick={() => send({ type: 'dialog.open', dialog: { kind: 'mkdir' } })}>
            <FolderPlus size={16} aria-hidden />
            {t`New folder`}
          </Button>
        </>
      ) : (
        <>
          <span className={styles.selectionCount} aria-live="polite">
            {t`${selected.length} selected`}
          </span>
          {one && (
            <Button onClick={() => onOpen(one)}>
              <FolderOpen size={16} aria-hidden />
              {t`Open`}
            </Button>
          )}
          {one && !one.isVirtual && (
            <Button onClick={() => send({ type: 'dialog.open', dialog: { kind: 'rename', path: one.path } })}>
              <Pencil size={16} aria-hidden />
              {t`Rename`}
            </Button>
          )}
          {one && !one.isDirectory && (
            <>
              <Button onClick={() => onDownload(one)}>
                <Download size={16} aria-hidden />
                {t`Download`}
              </Button>
              <Button onClick={() => onCopyLink(one)}>
                <Link2 size={16} aria-hidden />
                {t`Copy link`}
              </Button>
            </>
          )}
          {realSelection && (!one || one.isDirectory) && (
            <Button onClick={() => onDownloadZip(selected)}>
              <Download size={16} aria-hidden />
              {t`Download as zip`}
            </Button>
          )}
          {realSelection && (
            <>
              <Button onClick={() => send({ type: 'dialog.open', dialog: { kind: 'copy', paths } })}>
                <Copy size={16} aria-hidden />
                {t`Copy to…`}
              </Button>
              <Button variant="danger" onClick={() => send({ type: 'dialog.open', dialog: { kind: 'delete', paths } })}>
                <Trash2 size={16} aria-hidden />
                {t`Delete`}
              </Button>
            </>
          )}
          <Button variant="ghost" onClick={() => send({ type: 'selection.clear' })}>
            <X size={16} aria-hidden />
            {t`Clear selection`}
          </Button>
        </>
      )}
      <span className={styles.toolbarEnd}>
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
