import { useLingui } from '@lingui/react/macro';
import { UploadCloud } from 'lucide-react';
import { DropZone as FileDropZone } from '../../components/DropZone';

/** Drop files here, or choose them; many at once. */
export function DropZone({ onFiles, disabled }: { onFiles: (files: File[]) => void; disabled?: boolean }) {
  const { t } = useLingui();
  return (
    <FileDropZone
      onFiles={onFiles}
      disabled={disabled}
      icon={<UploadCloud size={36} aria-hidden />}
      prompt={t`Drag files here, or`}
      chooseLabel={t`Choose files`}
      testId="drop-zone"
      inputTestId="file-input"
    />
  );
}
