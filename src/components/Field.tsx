import { cloneElement, useId, type ReactElement, type ReactNode } from 'react';
import styles from './Field.module.css';

interface FieldProps {
  label: ReactNode;
  hint?: ReactNode;
  error?: ReactNode;
  /** One form control; it gets the id, aria-describedby and aria-invalid. */
  children: ReactElement<Record<string, unknown>>;
}

/** A labelled control with its hint and error announced to assistive technology. */
export function Field({ label, hint, error, children }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint && hintId, error && errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      {cloneElement(children, { id, 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined })}
      {hint && (
        <span id={hintId} className={styles.hint}>
          {hint}
        </span>
      )}
      {error && (
        <span id={errorId} className={styles.error} role="alert">
          {error}
        </span>
      )}
    </div>
  );
}

/** A tick box with its label and a hint under it, the hint announced with the box. */
export function CheckboxField({ name, label, hint, checked, onChange }: { name: string; label: ReactNode; hint: ReactNode; checked: boolean; onChange: (checked: boolean) => void }) {
  const hintId = `${useId()}-hint`;
  return (
    <div className={styles.field}>
      <label className={styles.checkbox}>
        <input type="checkbox" name={name} checked={checked} aria-describedby={hintId} onChange={(event) => onChange(event.target.checked)} />
        {label}
      </label>
      <p id={hintId} className={styles.hint}>
        {hint}
      </p>
    </div>
  );
}

export const fieldStyles = styles;
