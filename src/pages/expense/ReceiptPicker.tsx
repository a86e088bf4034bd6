import { useLingui } from '@lingui/react/macro';
import { Paperclip } from 'lucide-react';
import { RECEIPT_ACCEPT } from '../../../contract/expenses';
import { DropZone } from '../../components/DropZone';

/** Receipts dropped here or picked: images and PDFs, several at once. */
export function ReceiptPicker({ onFiles, disabled }: { onFiles: (files: File[]) => void; disabled?: boolean }) {
  const { t } = useLingui();
  return (
    <DropZone
      onFiles={onFiles}
      disabled={disabled}
      icon={<Paperclip size={24} aria-hidden />}
      prompt={t`Drop receipts here (images or PDFs), or`}
      chooseLabel={t`Choose receipts`}
      accept={RECEIPT_ACCEPT}
      testId="receipt-drop-zone"
      inputTestId="receipt-input"
    />
  );
}
