import { useLingui } from '@lingui/react/macro';
import { UploadCloud } from 'lucide-react';
import { useRef, useState, type DragEvent } from 'react';
import styles from './Upload.module.css';

/** Drop files here, or choose them; many at once. */
export function DropZone({ onFiles, disabled }: { onFiles: (files: File[]) => void; disabled?: boolean }) {
  const { t } = useLingui();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (!disabled && event.dataTransfer.files.length > 0) onFiles([...event.dataTransfer.files]);
  };

  return (
    <div
      className={styles.dropZone}
      data-over={over}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      data-testid="drop-zone"
    >
      <UploadCloud size={36} aria-hidden className={styles.dropIcon} />
      <p className={styles.dropText}>{t`Drag files here, or`}</p>
      <button type="button" className={styles.chooseButton} disabled={disabled} onClick={() => input.current?.click()}>
        {t`Choose files`}
      </button>
      <input
        ref={input}
        type="file"
        multiple
        className="visually-hidden"
        tabIndex={-1}
        aria-label={t`Choose files`}
        data-testid="file-input"
        onChange={(event) => {
          if (event.target.files?.length) onFiles([...event.target.files]);
          event.target.value = '';
        }}
      />
    </div>
  );
}
