import { useLingui } from '@lingui/react/macro';
import { Copy, Download, FileArchive, FolderInput, FolderOpen, Link2, Pencil, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import type { FsItem } from '../../../contract/fs';
import type { ExplorerEvent } from '../../../machines/explorer.machine';

/** What the page does for the actions on items; the toolbar and the context menu both call these. */
export interface ItemHandlers {
  send: (event: ExplorerEvent) => void;
  onOpen: (item: FsItem) => void;
  onCopyLink: (item: FsItem) => void;
  onDownload: (item: FsItem) => void;
  /** Several items, or a folder: one zip. */
  onDownloadZip: (items: FsItem[]) => void;
}

/** The selected items in the order shown, and a quick test of one path; built once per listing or selection. */
export interface Selected {
  items: FsItem[];
  has: (path: string) => boolean;
}

const NOTHING_SELECTED: Selected = { items: [], has: () => false };

/** Nothing selected costs nothing: a folder of 100,000 items is not walked for it each time a page arrives. */
export function selectedOf(items: FsItem[], selection: string[]): Selected {
  if (selection.length === 0) return NOTHING_SELECTED;
  const paths = new Set(selection);
  return { items: items.filter((item) => paths.has(item.path)), has: (path) => paths.has(path) };
}

export interface ItemAction {
  id: 'open' | 'rename' | 'download' | 'copyLink' | 'zip' | 'copy' | 'move' | 'delete';
  label: string;
  icon: ReactNode;
  danger?: boolean;
  run: () => void;
}

/** The actions that apply to the selected items, in the order the toolbar and the context menu show them. */
export function useSelectionActions(selected: FsItem[], handlers: ItemHandlers): ItemAction[] {
  const { t } = useLingui();
  const { send } = handlers;
  const one = selected.length === 1 ? selected[0] : undefined;
  const paths = selected.map((item) => item.path);
  // Mount points themselves (virtual folders) can be opened but not zipped, copied or deleted.
  const real = selected.length > 0 && selected.every((item) => !item.isVirtual);
  const icon = (Icon: typeof Copy) => <Icon size={16} aria-hidden />;
  const actions: (ItemAction | false | undefined)[] = [
    one && { id: 'open', label: t`Open`, icon: icon(FolderOpen), run: () => handlers.onOpen(one) },
    one && !one.isVirtual && { id: 'rename', label: t`Rename`, icon: icon(Pencil), run: () => send({ type: 'dialog.open', dialog: { kind: 'rename', path: one.path } }) },
    one && !one.isDirectory && { id: 'download', label: t`Download`, icon: icon(Download), run: () => handlers.onDownload(one) },
    one && !one.isDirectory && { id: 'copyLink', label: t`Copy link`, icon: icon(Link2), run: () => handlers.onCopyLink(one) },
    real && (!one || one.isDirectory) && { id: 'zip', label: t`Download as zip`, icon: icon(FileArchive), run: () => handlers.onDownloadZip(selected) },
    real && { id: 'copy', label: t`Copy to…`, icon: icon(Copy), run: () => send({ type: 'dialog.open', dialog: { kind: 'copy', paths } }) },
    real && { id: 'move', label: t`Move to…`, icon: icon(FolderInput), run: () => send({ type: 'dialog.open', dialog: { kind: 'move', paths } }) },
    real && { id: 'delete', label: t`Delete`, icon: icon(Trash2), danger: true, run: () => send({ type: 'dialog.open', dialog: { kind: 'delete', paths } }) },
  ];
  return actions.filter((action): action is ItemAction => Boolean(action));
}
