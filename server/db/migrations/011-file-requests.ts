import { sql, type Kysely, type Migration } from 'kysely';
import { addInsertionOrder } from '../dialect';

/**
 * File requests (services/file-requests.ts): a link through which people without an account send files to its
 * creator, and the files received through it (pending while their upload runs: they count against the request's
 * limits until completed, aborted or swept). Sizes are bigint, as everywhere (PostgreSQL's integer stops at 2^31).
 */
export const fileRequests: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('file_requests')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('target_kind', 'text', (c) => c.notNull().check(sql`target_kind in ('folder', 'shares')`))
      .addColumn('target_path', 'text')
      .addColumn('password_hash', 'text')
      .addColumn('expires_at', 'text')
      .addColumn('max_files', 'integer')
      .addColumn('max_file_size', 'bigint')
      .addColumn('max_total_size', 'bigint')
      .addColumn('allowed_types', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('show_uploads', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('closed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('file_requests_created_by').on('file_requests').columns(['created_by', 'created_at']).execute();
    await addInsertionOrder(db, 'file_requests');

    await db.schema
      .createTable('file_request_uploads')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('request_id', 'text', (c) => c.notNull().references('file_requests.id').onDelete('cascade'))
      .addColumn('sender_id', 'text', (c) => c.notNull())
      .addColumn('sender_name', 'text')
      .addColumn('filename', 'text', (c) => c.notNull())
      .addColumn('content_type', 'text', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'committed')`))
      .addColumn('path', 'text')
      .addColumn('storage_config_id', 'text')
      .addColumn('storage_key', 'text')
      .addColumn('upload_id', 'text')
      .addColumn('file_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('file_request_uploads_request').on('file_request_uploads').columns(['request_id', 'created_at']).execute();
    await db.schema.createIndex('file_request_uploads_pending').on('file_request_uploads').columns(['status', 'updated_at']).execute();
    await addInsertionOrder(db, 'file_request_uploads');
  },
};
