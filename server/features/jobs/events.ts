import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { AppDeps } from '../../context';
import { dialectOf, migrationSchemaOf } from '../../db/dialect';
import { log } from '../../observability/log';

type Listener = (jobId: string) => void;

/**
 * Tells every listener of every instance that a job's record changed (they read it again). On SQLite there is
 * one instance: the listeners are called in process. On PostgreSQL a change is a NOTIFY on a channel of this
 * install's schema, and each instance LISTENs on its own connection, so a live stream on any instance sees the
 * jobs that every other instance runs.
 */
export class JobEvents {
  private readonly listeners = new Set<Listener>();
  private channel: string | undefined;
  private client: { end(): Promise<void> } | undefined;

  constructor(private readonly deps: AppDeps) {}

  async start(): Promise<void> {
    if (dialectOf(this.deps.db) !== 'postgres' || !this.deps.config.databaseUrl) return;
    // Channels are per database, not per schema: installs (and test apps) sharing a database must not hear each other.
    const schema = (await migrationSchemaOf(this.deps.db)) ?? 'public';
    const channel = `clipstash_jobs_${createHash('sha256').update(schema).digest('hex').slice(0, 16)}`;
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: this.deps.config.databaseUrl });
    client.on('notification', (message) => message.payload && this.dispatch(message.payload));
    client.on('error', (error) => log.error(`Job events: PostgreSQL connection lost: ${error.message}`));
    await client.connect();
    await client.query(`LISTEN ${channel}`);
    this.client = client;
    this.channel = channel;
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.channel = undefined;
    await client?.end().catch(() => undefined);
  }

  /** Call after a job's record changed. */
  async changed(jobId: string): Promise<void> {
    if (!this.channel) return this.dispatch(jobId);
    await sql`select pg_notify(${this.channel}, ${jobId})`.execute(this.deps.db);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private dispatch(jobId: string) {
    for (const listener of this.listeners) listener(jobId);
  }
}
