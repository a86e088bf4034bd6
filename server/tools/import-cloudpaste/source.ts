import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import SQLite from 'better-sqlite3';

/**
 * The rows of a CloudPaste install (its schema as of commit 929c46ed), read from its SQLite file or from a D1 SQL
 * export. Flags are 0/1, times are CloudPaste's text (ISO or SQLite's `YYYY-MM-DD HH:MM:SS`, both UTC).
 */
export interface CpAdmin {
  id: string;
  username: string;
  /** Unsalted SHA-256 of the password, hex. */
  password: string;
}

export interface CpApiKey {
  id: string;
  name: string;
  key: string;
  text_permission: number;
  file_permission: number;
  mount_permission: number;
  basic_path: string | null;
  last_used: string | null;
  created_at: string;
  expires_at: string | null;
}

export interface CpS3Config {
  id: string;
  name: string;
  provider_type: string;
  endpoint_url: string;
  bucket_name: string;
  region: string | null;
  /** Plain or CloudPaste's `encrypted:` form (secrets.ts), like the secret. */
  access_key_id: string;
  secret_access_key: string;
  path_style: number;
  default_folder: string | null;
  is_public: number;
  is_default: number;
  total_storage_bytes: number | null;
  created_at: string;
  last_used: string | null;
}

export interface CpMount {
  id: string;
  name: string;
  storage_type: string;
  storage_config_id: string | null;
  mount_path: string;
  remark: string | null;
  is_active: number;
  sort_order: number | null;
  cache_ttl: number | null;
  created_at: string;
}

/** What pastes and file shares have in common; `plain_password` is the copy CloudPaste keeps beside the hash. */
interface CpShare {
  id: string;
  slug: string;
  remark: string | null;
  password: string | null;
  plain_password: string | null;
  expires_at: string | null;
  max_views: number | null;
  views: number | null;
  /** An admin's id (`admin:` before it on files uploaded through a mount) or `apikey:<id>`. */
  created_by: string | null;
  created_at: string;
  updated_at: string | null;
}

export interface CpPaste extends CpShare {
  content: string;
}

export interface CpFile extends CpShare {
  filename: string;
  storage_path: string;
  mimetype: string;
  size: number;
  s3_config_id: string;
  etag: string | null;
}

export interface CpSetting {
  key: string;
  value: string;
}

export interface CloudPasteData {
  admins: CpAdmin[];
  apiKeys: CpApiKey[];
  s3Configs: CpS3Config[];
  mounts: CpMount[];
  pastes: CpPaste[];
  files: CpFile[];
  settings: CpSetting[];
}

export class SourceError extends Error {}

const SQLITE_MAGIC = 'SQLite format 3\0';

/** Whether the file is a SQLite database (else it is read as SQL text). */
function isSqliteFile(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(SQLITE_MAGIC.length);
    readSync(fd, head, 0, head.length, 0);
    return head.toString('latin1') === SQLITE_MAGIC;
  } finally {
    closeSync(fd);
  }
}

/** Opens `cloudpaste.db`, or loads a D1 export (`CREATE TABLE`/`INSERT` statements) into a database in memory. */
function openSource(path: string): SQLite.Database {
  if (isSqliteFile(path)) return new SQLite(path, { readonly: true, fileMustExist: true });
  const memory = new SQLite(':memory:');
  try {
    memory.exec(readFileSync(path, 'utf8'));
  } catch (error) {
    memory.close();
    throw new SourceError(`${path} is neither a SQLite database nor SQL that loads: ${error instanceof Error ? error.message : String(error)}`);
  }
  return memory;
}

export function readCloudPaste(path: string): CloudPasteData {
  const db = openSource(path);
  try {
    const tables = new Set(db.prepare(`select name from sqlite_master where type = 'table'`).pluck().all() as string[]);
    if (!tables.has('pastes') || !tables.has('admins')) throw new SourceError(`${path} does not hold CloudPaste's tables (pastes, admins)`);
    // An older install may lack a table (mounts came later): it has none of those rows then.
    const rows = <T>(sql: string, table: string): T[] => (tables.has(table) ? (db.prepare(sql).all() as T[]) : []);
    const plain = (table: string, key: string) =>
      tables.has(table) ? `(select plain_password from ${table} where ${key} = s.id)` : 'null';
    return {
      admins: rows<CpAdmin>('select id, username, password from admins order by created_at, id', 'admins'),
      apiKeys: rows<CpApiKey>('select * from api_keys order by created_at, id', 'api_keys'),
      s3Configs: rows<CpS3Config>('select * from s3_configs order by created_at, id', 's3_configs'),
      mounts: rows<CpMount>('select * from storage_mounts order by sort_order, created_at, id', 'storage_mounts'),
      pastes: rows<CpPaste>(`select s.*, ${plain('paste_passwords', 'paste_id')} as plain_password from pastes s order by s.created_at, s.id`, 'pastes'),
      files: rows<CpFile>(`select s.*, ${plain('file_passwords', 'file_id')} as plain_password from files s order by s.created_at, s.id`, 'files'),
      settings: rows<CpSetting>('select key, value from system_settings order by key', 'system_settings'),
    };
  } finally {
    db.close();
  }
}
