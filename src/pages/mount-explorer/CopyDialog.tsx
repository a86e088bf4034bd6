import { useLingui } from '@lingui/react/macro';
import { ChevronRight, CornerLeftUp } from 'lucide-react';
import { useEffect, useState } from 'react';
import { asRequestFailure } from '../../../contract/envelope';
import type { FsListing } from '../../../contract/fs';
import { Button } from '../../components/Button';
import { Dialog, dialogStyles } from '../../components/Dialog';
import { listFolder } from '../../lib/api/fs';
import styles from './Explorer.module.css';
import { crumbsOf, parentOf } from './explorer-path';
import { ItemIcon } from './item-icon';

interface CopyDialogProps {
  operation: 'copy' | 'move';
  paths: string[];
  /** The folder the picker opens at: the one the items are in, where a copy most often goes next door. */
  startIn: string;
  onClose: () => void;
  onChoose: (destination: string) => void;
}

/**
 * Picks the folder to copy or move into by browsing every mount the user may see. Names already taken there are
 * asked about once the task has looked (skip, replace or keep both), so nothing is chosen about them here.
 */
export function CopyDialog({ operation, paths, startIn, onClose, onChoose }: CopyDialogProps) {
  const { t } = useLingui();
  const [folder, setFolder] = useState(startIn);
  const listing = useFolder(folder);
  const folders = listing.data?.items.filter((item) => item.isDirectory) ?? [];
  const canCopyHere = Boolean(listing.data && !listing.data.isVirtual);
  const into = paths.some((path) => path.endsWith('/') && folder.startsWith(path));
  // Moving items to the folder they are in would do nothing.
  const inPlace = operation === 'move' && paths.every((path) => parentOf(path) === folder);
  const where = crumbsOf(folder).map((crumb) => crumb.name).join(' / ') || t`Root`;
  const moving = operation === 'move';

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={moving ? t`Move ${paths.length} items to…` : t`Copy ${paths.length} items to…`}
      description={moving ? t`Choose the folder to move into.` : t`Choose the folder to copy into.`}
    >
      <div className={styles.picker}>
        <p className={styles.pickerPath} aria-live="polite">
          {t`Folder:`} <strong>{where}</strong>
        </p>
        <ul aria-label={t`Folders`} className={styles.pickerList}>
          {folder !== '/' && (
            <li>
              <button type="button" onClick={() => setFolder(parentOf(folder))}>
                <CornerLeftUp size={16} aria-hidden />
                {t`Up one level`}
              </button>
            </li>
          )}
          {folders.map((item) => (
            <li key={item.path}>
              <button type="button" onClick={() => setFolder(item.path)}>
                <ItemIcon item={item} size={16} />
                {item.name}
                <ChevronRight size={14} aria-hidden />
              </button>
            </li>
          ))}
          {listing.data && folders.length === 0 && <li className={styles.pickerEmpty}>{t`No folders here`}</li>}
          {listing.error && <li className="form-error">{listing.error}</li>}
        </ul>
        {into && <p className="form-error">{moving ? t`A folder cannot be moved into itself.` : t`A folder cannot be copied into itself.`}</p>}
        {inPlace && !into && <p className={styles.pickerEmpty}>{t`The items are already in this folder.`}</p>}
      </div>
      <div className={dialogStyles.actions}>
        <Button className={styles.touchTarget} onClick={onClose}>
          {t`Cancel`}
        </Button>
        <Button className={styles.touchTarget} variant="primary" disabled={!canCopyHere || into || inPlace} onClick={() => onChoose(folder)}>
          {moving ? t`Move here` : t`Copy here`}
        </Button>
      </div>
    </Dialog>
  );
}

/** The listing of the folder being browsed; a new folder starts a new listing (an old answer is dropped). */
function useFolder(folder: string): { data?: FsListing; error?: string } {
  const [state, setState] = useState<{ folder: string; data?: FsListing; error?: string }>({ folder });
  useEffect(() => {
    let current = true;
    listFolder(folder).then(
      (data) => current && setState({ folder, data }),
      (error: unknown) => current && setState({ folder, error: asRequestFailure(error).message }),
    );
    return () => {
      current = false;
    };
  }, [folder]);
  return state.folder === folder ? state : {};
}
