import { useLingui } from '@lingui/react/macro';
import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import type { Job, LiveTransfer } from '../../../../contract/jobs';
import { liveFeedMachine } from '../../../../machines/live-feed.machine';
import { ModuleHeader } from '../../../components/ModuleHeader';
import { FeedStatus } from './FeedStatus';
import { JobRow } from './JobRow';
import { browserNetwork, authorizedStream } from './live-sources';
import { TransferRow } from './TransferRow';
import styles from './Tasks.module.css';

/** Running first (newest first), then the finished (the last to end first). */
function byRecency<T>(items: T[], running: (item: T) => boolean, started: (item: T) => string, ended: (item: T) => string | null): T[] {
  const key = (item: T) => (running(item) ? `1${started(item)}` : `0${ended(item) ?? ''}`);
  return [...items].sort((a, b) => (key(a) < key(b) ? 1 : -1));
}

const jobsMachine = liveFeedMachine.provide({ actors: { stream: authorizedStream('/admin/jobs/events'), network: browserNetwork } });
const transfersMachine = liveFeedMachine.provide({ actors: { stream: authorizedStream('/admin/transfers/events'), network: browserNetwork } });

/**
 * The admin's live task manager: every server job and every transfer on any instance, each section fed by its own
 * event stream through a live-feed machine; the page renders the machines' state and sends nothing but cancels.
 */
export default function TasksModule({ title }: { title: string }) {
  const { t } = useLingui();
  const [jobsFeed] = useMachine(jobsMachine);
  const [transfersFeed] = useMachine(transfersMachine);
  const jobs = useMemo(
    () => byRecency(Object.values(jobsFeed.context.jobs), (job: Job) => !job.finishedAt, (job) => job.createdAt, (job) => job.finishedAt),
    [jobsFeed.context.jobs],
  );
  const transfers = useMemo(
    () =>
      byRecency(
        Object.values(transfersFeed.context.transfers),
        (transfer: LiveTransfer) => transfer.outcome === 'running',
        (transfer) => transfer.startedAt,
        (transfer) => transfer.finishedAt,
      ),
    [transfersFeed.context.transfers],
  );
  return (
    <section>
      <ModuleHeader title={title} description={t`What the server moves now, on every instance; finished tasks stay 24 hours.`} />
      <section className={styles.section} aria-labelledby="jobs-title">
        <div className={styles.sectionHead}>
          <h3 id="jobs-title">{t`Server jobs`}</h3>
          <FeedStatus state={jobsFeed} />
        </div>
        {jobs.length === 0 ? (
          <p className={styles.empty}>{t`No server jobs in the last 24 hours.`}</p>
        ) : (
          <ul className={styles.list}>
            {jobs.map((job) => (
              <JobRow key={job.id} job={job} />
            ))}
          </ul>
        )}
      </section>
      <section className={styles.section} aria-labelledby="transfers-title">
        <div className={styles.sectionHead}>
          <h3 id="transfers-title">{t`Transfers`}</h3>
          <FeedStatus state={transfersFeed} />
        </div>
        {transfers.length === 0 ? (
          <p className={styles.empty}>{t`Nothing is being uploaded or downloaded.`}</p>
        ) : (
          <ul className={styles.list}>
            {transfers.map((transfer) => (
              <TransferRow key={transfer.id} transfer={transfer} />
            ))}
          </ul>
        )}
      </section>
    </section>
  );
}
