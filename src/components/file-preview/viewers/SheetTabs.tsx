import { useLingui } from '@lingui/react/macro';
import { useId, useState, type KeyboardEvent } from 'react';
import { Button } from '../../Button';
import type { SheetTable } from './odf';
import styles from './Viewer.module.css';

/** A workbook's sheets as tabs (arrow keys move between them), the chosen one as a table. */
export function SheetTabs({ sheets }: { sheets: SheetTable[] }) {
  const { t } = useLingui();
  const [chosen, setChosen] = useState(0);
  const id = useId();
  const sheet = sheets[chosen];
  const onKeyDown = (event: KeyboardEvent) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    const next = (chosen + step + sheets.length) % sheets.length;
    setChosen(next);
    document.getElementById(`${id}-tab-${next}`)?.focus();
  };
  if (!sheet) return <p className={styles.note}>{t`The workbook has no sheets.`}</p>;
  return (
    <div>
      <div className={styles.tabs} role="tablist" aria-label={t`Sheets`} onKeyDown={onKeyDown}>
        {sheets.map((candidate, index) => (
          <Button
            key={index}
            id={`${id}-tab-${index}`}
            size="small"
            role="tab"
            className={styles.tab}
            aria-selected={index === chosen}
            aria-controls={`${id}-panel`}
            tabIndex={index === chosen ? 0 : -1}
            onClick={() => setChosen(index)}
          >
            {candidate.name || t`Sheet ${index + 1}`}
          </Button>
        ))}
      </div>
      <div id={`${id}-panel`} className={styles.sheet} role="tabpanel" aria-labelledby={`${id}-tab-${chosen}`} tabIndex={0}>
        {sheet.rows.length === 0 ? (
          <p className={styles.note}>{t`This sheet is empty.`}</p>
        ) : (
          <table>
            <tbody>
              {sheet.rows.map((row, rowIndex) => (
                <tr key={rowIndex}>
                  {row.map((cell, cellIndex) => (
                    <td key={cellIndex}>{cell}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      {sheet.truncated && <p className={styles.note}>{t`Only the first rows and columns are shown. Download the file for all of it.`}</p>}
    </div>
  );
}
