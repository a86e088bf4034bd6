import { useRef, useState, type DragEvent, type ReactNode } from 'react';
import styles from './DropZone.module.css';

interface DropZoneProps {
  onFiles: (files: File[]) => void;
  disabled?: boolean;
  /** A decorative icon above the prompt. */
  icon: ReactNode;
  /** What to drop, ending in "or" before the button. */
  prompt: string;
  /** The button's words, also the hidden input's label. */
  chooseLabel: string;
  /** The file picker's `accept` filter; anything when absent. */
  accept?: string;
  testId: string;
  inputTestId: string;
}

/** Files dropped here or chosen with the button, several at once. */
export function DropZone({ onFiles, disabled, icon, prompt, chooseLabel, accept, testId, inputTestId }: DropZoneProps) {
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
      data-testid={testId}
    >
      <span className={styles.dropIcon}>{icon}</span>
      <p className={styles.dropText}>{prompt}</p>
      <button type="button" className={styles.chooseButton} disabled={disabled} onClick={() => input.current?.click()}>
        {chooseLabel}
      </button>
      <input
        ref={input}
        type="file"
        multiple
        accept={accept}
        className="visually-hidden"
        tabIndex={-1}
        aria-label={chooseLabel}
        data-testid={inputTestId}
        onChange={(event) => {
          if (event.target.files?.length) onFiles([...event.target.files]);
          event.target.value = '';
        }}
      />
    </div>
  );
}
