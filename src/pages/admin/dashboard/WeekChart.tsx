import { useLingui } from '@lingui/react/macro';
import styles from './Dashboard.module.css';

const HEIGHT = 140;
/** Room above the bars for the tallest one's count. */
const TOP = 14;
const DAY_WIDTH = 48;
const BAR_WIDTH = 19;

const sum = (counts: number[]) => counts.reduce((total, count) => total + count, 0);

/** One bar and its count above it. */
function Bar({ x, count, max, className }: { x: number; count: number; max: number; className?: string }) {
  const height = (count / max) * HEIGHT;
  return (
    <>
      <rect className={className} x={x} y={TOP + HEIGHT - height} width={BAR_WIDTH} height={height} rx={2} />
      <text className={styles.value} x={x + BAR_WIDTH / 2} y={TOP + HEIGHT - height - 3} textAnchor="middle">
        {count}
      </text>
    </>
  );
}

/**
 * Paste and file counts of the last 7 days as paired bars with their counts, oldest day first, and a table for
 * readers (the picture is one image to assistive technology).
 */
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
      <svg viewBox={`0 0 ${days.length * DAY_WIDTH} ${TOP + HEIGHT + 20}`} role="img" aria-label={t`Text shares and file uploads per day for the last 7 days`}>
        {days.map((day, index) => (
          <g key={index} transform={`translate(${index * DAY_WIDTH + 4}, 0)`}>
            <Bar x={0} count={pastes[index] ?? 0} max={max} className={styles.barPastes} />
            <Bar x={BAR_WIDTH + 2} count={files[index] ?? 0} max={max} className={styles.barFiles} />
            <text className={styles.axis} x={BAR_WIDTH + 1} y={TOP + HEIGHT + 15} textAnchor="middle">
              {day}
            </text>
          </g>
        ))}
      </svg>
      <figcaption className={styles.legend}>
        <span>
          <i className={styles.swatchPastes} /> {t`Text shares`} ({sum(pastes)})
        </span>
        <span>
          <i className={styles.swatchFiles} /> {t`File uploads`} ({sum(files)})
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
