import { useLingui } from '@lingui/react/macro';
import { Download, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { ExpenseReceipt } from '../../../contract/expenses';
import { useAppActors } from '../../app/actors';
import { Button } from '../../components/Button';
import { PageSkeleton } from '../../components/PageSkeleton';
import { loadReceipt } from '../../lib/api/expenses';
import { formatBytes } from '../../lib/format';
import tableStyles from '../../components/DataTable.module.css';
import previewStyles from '../../components/file-preview/FilePreview.module.css';
import styles from './Expense.module.css';
import { BreakableName } from '../../components/BreakableName';

interface ReceiptListProps {
  claimId: string;
  receipts: ExpenseReceipt[];
  /** Offered while the claim is editable by this viewer. */
  onDelete?: (receipt: ExpenseReceipt) => void;
  busy?: boolean;
}

/** The claim's receipts, each shown in the page: images as pictures, PDFs in a frame. */
export function ReceiptList({ claimId, receipts, onDelete, busy }: ReceiptListProps) {
  const { t } = useLingui();
  if (receipts.length === 0) return <p className={styles.muted}>{t`No receipts yet.`}</p>;
  return (
    <ul className={styles.receipts}>
      {receipts.map((receipt) => (
        <li key={receipt.id} className={styles.receipt} data-receipt-name={receipt.filename}>
          <ReceiptPreview claimId={claimId} receipt={receipt} onDelete={onDelete} busy={busy} />
        </li>
      ))}
    </ul>
  );
}

type Loaded = { status: 'loading' } | { status: 'ready'; url: string } | { status: 'error' };

/**
 * The receipt's bytes as an object URL: its route needs the user's credentials, which the `<img>` and the frame
 * cannot send. The URL is given up when the receipt leaves the page.
 */
function useReceiptUrl(claimId: string, { id, content_type: type }: ExpenseReceipt): Loaded {
  const { auth } = useAppActors();
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    let url: string | undefined;
    loadReceipt(claimId, { id, content_type: type }, auth.getSnapshot().context, controller.signal).then(
      (blob) => {
        url = URL.createObjectURL(blob);
        setLoaded({ status: 'ready', url });
      },
      () => !controller.signal.aborted && setLoaded({ status: 'error' }),
    );
    return () => {
      controller.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [auth, claimId, id, type]);
  return loaded;
}

function ReceiptPreview({ claimId, receipt, onDelete, busy }: { claimId: string; receipt: ExpenseReceipt; onDelete?: (receipt: ExpenseReceipt) => void; busy?: boolean }) {
  const { t } = useLingui();
  const loaded = useReceiptUrl(claimId, receipt);
  const name = receipt.filename;
  return (
    <>
      <div className={styles.receiptHead}>
        <span className={styles.chosenName}>
          <BreakableName name={name} />
        </span>
        <span className={styles.muted}>{formatBytes(receipt.size)}</span>
        {loaded.status === 'ready' && (
          <a className={tableStyles.iconLink} href={loaded.url} download={name} aria-label={t`Download ${name}`} title={t`Download ${name}`}>
            <Download size={15} aria-hidden />
          </a>
        )}
        {onDelete && (
          <Button size="small" variant="ghost" aria-label={t`Delete receipt ${name}`} disabled={busy} onClick={() => onDelete(receipt)}>
            <Trash2 size={15} aria-hidden />
          </Button>
        )}
      </div>
      {loaded.status === 'loading' && <PageSkeleton lines={3} />}
      {loaded.status === 'error' && <p className="form-error">{t`The receipt could not be loaded.`}</p>}
      {loaded.status === 'ready' &&
        (receipt.content_type === 'application/pdf' ? (
          // As file previews do: Chromium shows no PDF in a sandboxed frame. The blob is typed as a PDF whatever
          // its bytes are, so the frame can only ever hold the browser's PDF viewer, never a page of ours.
          <iframe className={`${previewStyles.frame} ${styles.receiptFrame}`} src={loaded.url} title={t`PDF receipt ${name}`} />
        ) : (
          <img className={`${previewStyles.media} ${styles.receiptImage}`} src={loaded.url} alt={t`Receipt ${name}`} />
        ))}
    </>
  );
}
