import { sql, type Kysely, type Migration } from 'kysely';
import { addInsertionOrder } from '../dialect';

/**
 * Expense claims (services/expenses.ts): the claim, its transitions as events (the status column is their fold,
 * written with each), its receipts (objects in the storage's expense area), and the API keys' fourth permission.
 * Amounts and sizes are bigint: PostgreSQL's integer stops at 2^31, SQLite's integers are 64-bit whatever declared.
 */
export const expenses: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('api_keys').addColumn('expense_permission', 'integer', (c) => c.notNull().defaultTo(0)).execute();

    await db.schema
      .createTable('expense_claims')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('amount_minor', 'bigint', (c) => c.notNull().check(sql`amount_minor > 0`))
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('spent_on', 'text', (c) => c.notNull())
      .addColumn('category', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('status', 'text', (c) =>
        c.notNull().check(sql`status in ('draft', 'submitted', 'processing', 'approved', 'rejected')`),
      )
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('owner_name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('expense_claims_created_by').on('expense_claims').columns(['created_by', 'created_at']).execute();
    await db.schema.createIndex('expense_claims_status').on('expense_claims').columns(['status', 'created_at']).execute();
    await addInsertionOrder(db, 'expense_claims');

    await db.schema
      .createTable('expense_events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('claim_id', 'text', (c) => c.notNull().references('expense_claims.id').onDelete('cascade'))
      .addColumn('event', 'text', (c) => c.notNull())
      .addColumn('from_status', 'text', (c) => c.notNull())
      .addColumn('to_status', 'text', (c) => c.notNull())
      .addColumn('actor', 'text', (c) => c.notNull())
      .addColumn('actor_name', 'text', (c) => c.notNull())
      .addColumn('note', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('expense_events_claim').on('expense_events').columns(['claim_id', 'created_at']).execute();
    await addInsertionOrder(db, 'expense_events');

    await db.schema
      .createTable('expense_receipts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('claim_id', 'text', (c) => c.notNull().references('expense_claims.id').onDelete('cascade'))
      .addColumn('filename', 'text', (c) => c.notNull())
      .addColumn('content_type', 'text', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('storage_config_id', 'text', (c) => c.notNull().references('storage_configs.id'))
      .addColumn('storage_path', 'text', (c) => c.notNull())
      .addColumn('etag', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('expense_receipts_claim').on('expense_receipts').columns(['claim_id', 'created_at']).execute();
    await addInsertionOrder(db, 'expense_receipts');
  },
};
