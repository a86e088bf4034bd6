import type PgBoss from 'pg-boss';
import type { AppDeps } from '../../context';
import { dialectOf, migrationSchemaOf } from '../../db/dialect';
import { log } from '../../observability/log';

/**
 * Hands job ids to a worker: `send` when a job is created or resumed, and the worker calls `handle` with it.
 * `handle` answers `held` when another instance runs the job now (its lease is live): the queue asks again later,
 * which is how a job of an instance that died is taken over.
 */
export interface JobQueue {
  start(handle: (jobId: string) => Promise<'done' | 'held'>): Promise<void>;
  send(jobId: string): Promise<void>;
  stop(): Promise<void>;
}

export const queueFor = (deps: AppDeps): JobQueue => (dialectOf(deps.db) === 'postgres' ? new PgBossQueue(deps) : new LocalQueue(deps));

/** Jobs one instance runs at once. */
const JOBS_AT_ONCE = 2;

/**
 * SQLite's queue: one instance, in process. At start it takes up every job its records leave queued or running
 * (a restart, a kill -9), so they go on from their items.
 */
class LocalQueue implements JobQueue {
  private readonly waiting: string[] = [];
  private running = 0;
  private handle: ((jobId: string) => Promise<'done' | 'held'>) | undefined;
  private retry: NodeJS.Timeout | undefined;

  constructor(private readonly deps: AppDeps) {}

  async start(handle: (jobId: string) => Promise<'done' | 'held'>) {
    this.handle = handle;
    const left = await this.deps.db.selectFrom('jobs').select('id').where('status', 'in', ['queued', 'running']).orderBy('created_at').execute();
    for (const { id } of left) await this.send(id);
  }

  async send(jobId: string) {
    if (!this.waiting.includes(jobId)) this.waiting.push(jobId);
    this.next();
  }

  async stop() {
    this.handle = undefined;
    this.waiting.length = 0;
    clearTimeout(this.retry);
  }

  private next() {
    const handle = this.handle;
    while (handle && this.running < JOBS_AT_ONCE && this.waiting.length > 0) {
      const jobId = this.waiting.shift() as string;
      this.running++;
      void handle(jobId)
        .catch((error: unknown) => {
          log.error({ err: error }, `Job ${jobId} stopped`);
          return 'done' as const;
        })
        .then((outcome) => {
          this.running--;
          // Held by a run of this process that is still ending (a pause, then a resume at once): asked again soon.
          if (outcome === 'held') this.retry = setTimeout(() => void this.send(jobId), 500);
          this.next();
        });
    }
  }
}

const QUEUE = 'clipstash-jobs';

/**
 * Makes the queue unless it exists. Instances starting together race to make it: PostgreSQL may then abort one of
 * them as a deadlock before the other has committed, so a failure is looked at again a few times before it counts.
 */
async function createQueueOnce(boss: PgBoss, attempts = 5): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    if (await boss.getQueue(QUEUE)) return;
    try {
      await boss.createQueue(QUEUE, { name: QUEUE, policy: 'stately' });
      return;
    } catch (error) {
      if (attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

/**
 * PostgreSQL's queue: pg-boss, in this install's schema. One worker per instance; the `stately` policy with the
 * job's id as singleton key lets one instance at a time hold a job's message. pg-boss has no heartbeat: a message
 * expires after the lease and comes back (as a retry) to whichever instance asks next; while the job's lease in
 * its record is live, that instance answers `held` and the message is retried again. When the instance that ran it
 * died, its lease lapses and the next retry takes the job over.
 */
class PgBossQueue implements JobQueue {
  private boss: PgBoss | undefined;

  constructor(private readonly deps: AppDeps) {}

  async start(handle: (jobId: string) => Promise<'done' | 'held'>) {
    const { default: Boss } = await import('pg-boss');
    const lease = this.deps.config.jobLeaseSeconds;
    const schema = (await migrationSchemaOf(this.deps.db)) ?? 'public';
    const boss = new Boss({
      connectionString: this.deps.config.databaseUrl,
      schema: `${schema}_jobs`.slice(0, 63),
      max: 3,
      maintenanceIntervalSeconds: Math.max(1, Math.min(lease, 60)),
      schedule: false,
    });
    boss.on('error', (error: Error) => log.error(`Job queue: ${error.message}`));
    await boss.start();
    await createQueueOnce(boss);
    await boss.work<{ jobId: string }>(QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, async ([message]) => {
      if (!message) return;
      if ((await handle(message.data.jobId)) === 'held') throw new Error('held by another instance');
    });
    this.boss = boss;
  }

  async send(jobId: string) {
    const lease = this.deps.config.jobLeaseSeconds;
    await this.boss?.send(QUEUE, { jobId }, {
      singletonKey: jobId,
      expireInSeconds: lease,
      retryLimit: 1_000_000,
      retryDelay: Math.max(1, Math.floor(lease / 3)),
    });
  }

  async stop() {
    const boss = this.boss;
    this.boss = undefined;
    await boss?.stop({ graceful: false, wait: true, timeout: 5000 }).catch(() => undefined);
  }
}
