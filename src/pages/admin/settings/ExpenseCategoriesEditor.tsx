import { useLingui } from '@lingui/react/macro';
import { Plus, Trash2 } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { EXPENSE_CATEGORIES_MAX, EXPENSE_CATEGORY_MAX } from '../../../../contract/expenses';
import { Button } from '../../../components/Button';
import { fieldStyles } from '../../../components/Field';
import type { CategoryError } from './expense-categories';
import styles from './Settings.module.css';

interface ExpenseCategoriesEditorProps {
  names: readonly string[];
  /** One per row, undefined where the row is fine; empty before the first save. */
  errors: readonly (CategoryError | undefined)[];
  onChange: (names: string[]) => void;
}

/** The categories a claim is filed under: rename in place, add, remove; one always stays. */
export function ExpenseCategoriesEditor({ names, errors, onChange }: ExpenseCategoriesEditorProps) {
  const { t } = useLingui();
  const id = useId();
  // Rows keep their identity while others are removed (React keys, focus); a name cannot: it is being edited.
  const nextRowId = useRef(names.length);
  const [rowIds, setRowIds] = useState(() => names.map((_, index) => index));
  const focusRow = useRef<number | undefined>(undefined);

  const errorText: Record<CategoryError, string> = {
    required: t`Enter a name or remove this category`,
    too_long: t`At most ${EXPENSE_CATEGORY_MAX} characters`,
    invalid_characters: t`Tabs and other control characters are not allowed`,
    duplicate: t`This category is already in the list`,
  };

  const add = () => {
    const rowId = nextRowId.current++;
    focusRow.current = rowId;
    setRowIds([...rowIds, rowId]);
    onChange([...names, '']);
  };
  const remove = (index: number) => {
    // Focus goes to the row that takes the removed one's place, or to the one above when it was the last.
    focusRow.current = rowIds[index + 1] ?? rowIds[index - 1];
    setRowIds(rowIds.filter((_, at) => at !== index));
    onChange(names.filter((_, at) => at !== index));
  };
  const rename = (index: number, name: string) => onChange(names.map((old, at) => (at === index ? name : old)));

  return (
    <fieldset className={fieldStyles.field} aria-describedby={`${id}-hint`}>
      <legend className={fieldStyles.label}>{t`Expense categories`}</legend>
      <span id={`${id}-hint`} className={fieldStyles.hint}>
        {t`A claim is filed under one of these. Claims already filed keep the category they have.`}
      </span>
      <ol className={styles.categories}>
        {names.map((name, index) => {
          const rowId = rowIds[index] ?? index;
          const error = errors[index];
          const position = index + 1;
          return (
            <li key={rowId}>
              <div className={styles.categoryRow}>
                <input
                  ref={(input) => {
                    if (input && focusRow.current === rowId) {
                      focusRow.current = undefined;
                      input.focus();
                    }
                  }}
                  name="expenseCategory"
                  aria-label={t`Category ${position}`}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${id}-error-${rowId}` : undefined}
                  value={name}
                  onChange={(e) => rename(index, e.target.value)}
                />
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={t`Remove category ${position}`}
                  title={t`Remove category ${position}`}
                  disabled={names.length === 1}
                  onClick={() => remove(index)}
                >
                  <Trash2 size={16} aria-hidden />
                </Button>
              </div>
              {error && (
                <span id={`${id}-error-${rowId}`} className={fieldStyles.error} role="alert">
                  {errorText[error]}
                </span>
              )}
            </li>
          );
        })}
      </ol>
      <div>
        <Button size="small" disabled={names.length >= EXPENSE_CATEGORIES_MAX} onClick={add}>
          <Plus size={15} aria-hidden />
          {t`Add category`}
        </Button>
      </div>
    </fieldset>
  );
}
