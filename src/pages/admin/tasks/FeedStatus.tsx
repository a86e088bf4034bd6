import { useLingui } from '@lingui/react/macro';
import type { LiveFeedSnapshot } from '../../../../machines/live-feed.machine';
import styles from './Tasks.module.css';

/** Where a live feed stands, from its machine's tags: the list below is only as fresh as this says. */
export function FeedStatus({ state }: { state: LiveFeedSnapshot }) {
  const { t } = useLingui();
  const [label, tone] = state.hasTag('live')
    ? [t`Live`, 'live']
    : state.hasTag('offline')
      ? [t`Offline: the list resumes once you are back online`, 'stale']
      : state.hasTag('reconnecting')
        ? [t`Connection lost, reconnecting…`, 'stale']
        : [t`Connecting…`, 'stale'];
  return (
    <p className={styles.feedStatus} data-tone={tone} role="status">
      {label}
    </p>
  );
}
