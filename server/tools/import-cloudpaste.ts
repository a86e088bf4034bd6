/**
 * `npm run import-cloudpaste -- --from <cloudpaste.db | D1 export.sql> --secret <ENCRYPTION_SECRET>
 *   [--s3-endpoint URL] [--merge] [--dry-run]`
 * Imports a CloudPaste install into this one's database, as the server's own configuration names it (DATA_DIR, or
 * DATABASE_URL with ENCRYPTION_KEY): see server/tools/import-cloudpaste/runner.ts and docs/coming-from-cloudpaste.md.
 * Exits 0 when done, 2 when done but rows were refused (listed in the summary), 1 when it stopped on an error.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError, readConfig } from '../config';
import { openDatabase, sqlitePath } from '../db/database';
import { describePostgresUrl } from '../db/dialect';
import { createSecretBox, loadEncryptionKey } from '../security/secret-box';
import type { ImportOptions } from './import-cloudpaste/context';
import { ImportRefused, importCloudPaste } from './import-cloudpaste/runner';
import { SecretMismatch } from './import-cloudpaste/secrets';
import { readCloudPaste, SourceError } from './import-cloudpaste/source';

const USAGE =
  'usage: npm run import-cloudpaste -- --from CLOUDPASTE_DB_OR_D1_SQL --secret ENCRYPTION_SECRET [--s3-endpoint URL] [--merge] [--dry-run]';

class UsageError extends Error {}

/** The exit code of an import that refused rows: what it could trust is in, and a script sees that not all is. */
const REFUSED_EXIT_CODE = 2;

function parse(argv: string[]): ImportOptions & { from: string } {
  const named = new Map<string, string>();
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [name = '', inline] = arg.split(/=(.*)/s);
    if (arg === '--merge' || arg === '--dry-run') flags.add(arg);
    else if (/^--(from|secret|s3-endpoint)$/.test(name) && inline !== undefined) named.set(name.slice(2), inline);
    else if (/^--(from|secret|s3-endpoint)$/.test(arg) && argv[i + 1] !== undefined) named.set(arg.slice(2), argv[++i] ?? '');
    else throw new UsageError(`unknown argument ${arg}\n${USAGE}`);
  }
  const from = named.get('from');
  const secret = named.get('secret');
  if (!from) throw new UsageError(`--from is required\n${USAGE}`);
  if (!existsSync(from)) throw new UsageError(`--from: there is no file ${from}`);
  if (!secret) throw new UsageError(`--secret (CloudPaste's ENCRYPTION_SECRET) is required\n${USAGE}`);
  const endpoint = named.get('s3-endpoint');
  if (endpoint !== undefined && !/^https?:\/\/[^\s/]+/.test(endpoint)) throw new UsageError(`--s3-endpoint must be an http(s) URL\n${USAGE}`);
  return {
    from: resolve(from),
    secret,
    merge: flags.has('--merge'),
    dryRun: flags.has('--dry-run'),
    ...(endpoint !== undefined && { s3Endpoint: endpoint }),
  };
}

async function main() {
  const args = parse(process.argv.slice(2));
  const config = readConfig();
  const data = readCloudPaste(args.from);
  console.log(`${args.dryRun ? 'Dry run: nothing is written. ' : ''}Importing ${args.from} into ${config.databaseUrl ? describePostgresUrl(config.databaseUrl) : `SQLite in ${config.dataDir}`}`);
  // A dry run against an install that has no database yet reads a throwaway one, and its sealing is rolled back
  // anyway: it creates neither the database nor the key file.
  const noDatabaseYet = args.dryRun && !config.databaseUrl && !existsSync(sqlitePath(config.dataDir));
  const dataDir = noDatabaseYet ? mkdtempSync(join(tmpdir(), 'clipstash-dry-run-')) : config.dataDir;
  const db = await openDatabase(dataDir, config.databaseUrl);
  try {
    // A dry run reads the install's key where there is one (an earlier run's storage secrets are recognised by
    // it), and never creates one.
    const hasKey = Boolean(config.encryptionKey) || existsSync(join(config.dataDir, 'secret.key'));
    const secrets = createSecretBox(args.dryRun && !hasKey ? randomBytes(32) : loadEncryptionKey(config.dataDir, config.encryptionKey));
    const report = await importCloudPaste({ db, config, secrets, now: () => new Date() }, data, args);
    console.log(args.dryRun ? 'Would import:' : 'Imported:');
    for (const line of report.lines(args.dryRun)) console.log(line);
    if (report.refused.length > 0) {
      console.error(`${report.refused.length} row(s) refused: they name what this import does not bring, or an unsafe storage key (listed above).`);
      process.exitCode = REFUSED_EXIT_CODE;
    }
  } finally {
    await db.destroy();
    if (noDatabaseYet) rmSync(dataDir, { recursive: true, force: true });
  }
}

const EXPECTED = [UsageError, ConfigError, SourceError, SecretMismatch, ImportRefused];

main().catch((error: unknown) => {
  // Errors of pg can quote connection details; ours say what to do.
  const known = EXPECTED.some((kind) => error instanceof kind);
  console.error(known ? (error as Error).message : `import-cloudpaste failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
