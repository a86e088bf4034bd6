import { sql, type Kysely, type Migration } from 'kysely';
import { dialectOf } from '../dialect';

/**
 * Webhooks (server/features/webhooks/): the admin's endpoints with their sealed signing secret and failure streak;
 * the outbox of events still to deliver (a row per webhook and event, deleted once delivered or given up; ordered by
 * its id, which PostgreSQL and SQLite both hand out increasing); each webhook's last deliveries; and the shares
 * whose expiry was already announced, so that an expired link opened again does not announce it twice.
 */
export const webhooks: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = dialectOf(db) === 'postgres';
    const serialId = (table: string) =>
      db.schema
        .createTable(table)
        .addColumn('id', postgres ? 'bigint' : 'integer', (c) => (postgres ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement()));

    await db.schema
      .createTable('webhooks')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('events', 'text', (c) => c.notNull())
      .addColumn('format', 'text', (c) => c.notNull().check(sql`format in ('json', 'discord', 'slack', 'ntfy')`))
      .addColumn('secret_sealed', 'text', (c) => c.notNull())
      .addColumn('secret_hint', 'text', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('failure_streak', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('failing_since', 'text')
      .addColumn('disabled_reason', 'text')
      .addColumn('disabled_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await serialId('webhook_outbox')
      .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('event', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('webhook_outbox_order').on('webhook_outbox').columns(['webhook_id', 'id']).execute();

    await serialId('webhook_deliveries')
      .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('event', 'text', (c) => c.notNull())
      .addColumn('attempt', 'integer', (c) => c.notNull())
      .addColumn('status_code', 'integer')
      .addColumn('error', 'text')
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .addColumn('delivered_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('webhook_deliveries_latest').on('webhook_deliveries').columns(['webhook_id', 'id']).execute();

    await db.schema
      .createTable('webhook_announced')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
  },
};
