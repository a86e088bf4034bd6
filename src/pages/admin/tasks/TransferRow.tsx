import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import type { Actor, LiveTransfer } from '../../../../contract/jobs';
import { BreakableName } from '../../../components/BreakableName';
import { ProgressBar } from '../../../components/ProgressBar';
import { formatBytes } from '../../../lib/format';
import { formatDuration, formatShortDateTime } from '../../../lib/format-short';
import { OUTCOME_LABELS, TRANSFER_KIND_LABELS } from './labels';
import styles from './Tasks.module.css';

export function useWhoLabel() {
  const { t } = useLingui();
  return ({ kind, name }: Actor) => {
    if (kind === 'admin') return t`Admin ${name}`;
    if (kind === 'apiKey') return t`API key ${name}`;
    if (kind === 'fileRequest') return t`File request “${name}”`;
    if (kind === 'schedule') return t`Schedule ${name}`;
    return t`Visitor`;
  };
}

const OUTCOME_TONES = { running: 'accent', completed: 'success', failed: 'danger', cancelled: 'danger' } as const;

/** One transfer: who moves what, how far, how fast and how long still; once ended, its outcome. */
export function TransferRow({ transfer }: { transfer: LiveTransfer }) {
  const { t, i18n } = useLingui();
  const whoLabel = useWhoLabel();
  const { name, bytesDone, bytesTotal, speed, outcome, partsInFlight } = transfer;
  const running = outcome === 'running';
  const percent = bytesTotal ? Math.round((bytesDone / bytesTotal) * 100) : undefined;
  const left = running && speed && bytesTotal ? (bytesTotal - bytesDone) / speed : undefined;
  const done = bytesTotal === null ? formatBytes(bytesDone) : t`${formatBytes(bytesDone)} of ${formatBytes(bytesTotal)}`;
  return (
    <li className={styles.row} data-outcome={outcome}>
      <div className={styles.rowHead}>
        <span className={styles.name}>
          <BreakableName name={name} />
        </span>
        <span className={styles.badge} data-tone={OUTCOME_TONES[outcome]}>
          {i18n._(OUTCOME_LABELS[outcome])}
        </span>
      </div>
      <p className={styles.meta}>
        {i18n._(TRANSFER_KIND_LABELS[transfer.kind])} · {whoLabel(transfer.who)}
      </p>
      {percent !== undefined && (running || outcome !== 'completed') && (
        <ProgressBar value={percent} label={t`Progress of ${name}`} tone={OUTCOME_TONES[outcome]} live={running} />
      )}
      <p className={styles.figures}>
        <span>{done}</span>
        {running && speed !== null && <span>{t`${formatBytes(speed)}/s`}</span>}
        {left !== undefined && <span>{t`${formatDuration(left)} left`}</span>}
        {running && partsInFlight ? <span>{plural({ partsInFlight }, { one: '# part in flight', other: '# parts in flight' })}</span> : null}
        {!running && transfer.finishedAt && <span>{t`Ended ${formatShortDateTime(transfer.finishedAt, i18n.locale)}`}</span>}
      </p>
    </li>
  );
}
