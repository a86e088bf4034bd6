import { useLingui } from '@lingui/react/macro';
import styles from './Dashboard.module.css';

const HEIGHT = 140;

/** Paste and file counts of the last 7 days as paired bars, oldest day first, with a table for readers. */
export function WeekChart({ pastes, files }: { pastes: number[]; files: number[] }) {
  const { t, i18n } = useLingui();
  const max = Math.max(1, ...pastes, ...files);
  const days = pastes.map((_, index) => {
    const date = new Date();
    date.setDate(date.getDate() - (pastes.length - 1 - index));
    return new Intl.DateTimeFormat(i18n.locale, { weekday: 'short' }).format(date);
  });
  return (
    <figure className={styles.chart}>
      <svg viewBox={`0 0 ${days.length * 40} ${HEIGHT + 20}`} role="img" aria-label={t`Text shares and file uploads per day for the last 7 days`}>
        {days.map((day, index) => {
          const pasteHeight = ((pastes[index] ?? 0) / max) * HEIGHT;
          const fileHeight = ((files[index] ?? 0) / max) * HEIGHT;
          return (
            <g key={index} transform={`translate(${index * 40 + 6}, 0)`}>
              <rect className={styles.barPastes} x={0} y={HEIGHT - pasteHeight} width={13} height={pasteHeight} rx={2} />
              <rect className={styles.barFiles} x={15} y={HEIGHT - fileHeight} width={13} height={fileHeight} rx={2} />
              <text className={styles.axis} x={14} y={HEIGHT + 15} textAnchor="middle">
                {day}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption className={styles.legend}>
        <span>
          <i className={styles.swatchPastes} /> {t`Text shares`}
        </span>
        <span>
          <i className={styles.swatchFiles} /> {t`File uploads`}
        </span>
      </figcaption>
      <table className="visually-hidden">
        <thead>
          <tr>
            <th scope="col">{t`Day`}</th>
            <th scope="col">{t`Text shares`}</th>
            <th scope="col">{t`File uploads`}</th>
          </tr>
        </thead>
        <tbody>
          {days.map((day, index) => (
            <tr key={index}>
              <th scope="row">{day}</th>
              <td>{pastes[index]}</td>
              <td>{files[index]}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
