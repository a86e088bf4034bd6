import { useLingui } from '@lingui/react/macro';
import { ExternalLink, Pencil, QrCode as QrIcon, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from './Button';
import tableStyles from './DataTable.module.css';

interface RowActionsProps {
  /** What the row is called, for the buttons' accessible names. */
  name: string;
  /** The share page, opened in a new tab. */
  openHref?: string;
  onQr?: () => void;
  onEdit: () => void;
  onDelete: () => void;
  editLabel?: string;
  deleteLabel?: string;
  /** Buttons of this kind of row only, before edit and delete. */
  children?: ReactNode;
}

/** The icon buttons at the end of a management table row: open, QR code, edit, delete. */
export function RowActions({ name, openHref, onQr, onEdit, onDelete, editLabel, deleteLabel, children }: RowActionsProps) {
  const { t } = useLingui();
  return (
    <div className={tableStyles.actions}>
      {openHref && (
        <a className={tableStyles.iconLink} href={openHref} target="_blank" rel="noreferrer" aria-label={t`Open ${name}`}>
          <ExternalLink size={15} aria-hidden />
        </a>
      )}
      {onQr && (
        <Button size="small" aria-label={t`QR code of ${name}`} onClick={onQr}>
          <QrIcon size={15} aria-hidden />
        </Button>
      )}
      {children}
      <Button size="small" aria-label={editLabel ?? t`Edit ${name}`} onClick={onEdit}>
        <Pencil size={15} aria-hidden />
      </Button>
      <Button size="small" variant="ghost" aria-label={deleteLabel ?? t`Delete ${name}`} onClick={onDelete}>
        <Trash2 size={15} aria-hidden />
      </Button>
    </div>
  );
}
