/**
 * `npm run migrate-db -- --from sqlite:./data/clipstash.sqlite --to postgres://user:pass@host/db [--replace]`
 * Copies a SQLite install into PostgreSQL (see server/db/copy-database.ts). Stop the instance that uses the SQLite
 * file first, or copy again (with --replace) before switching over. Never prints the target URL (it may hold a
 * password), only its host and database.
 */
import { resolve } from 'node:path';
import { CopyError, copyDatabase } from '../db/copy-database';
import { openDatabase } from '../db/database';
import { connectSqlite, describePostgresUrl } from '../db/dialect';

const USAGE = 'usage: npm run migrate-db -- --from sqlite:PATH --to postgres://USER:PASSWORD@HOST:PORT/DATABASE [--replace] [--batch ROWS]';

interface Arguments {
  from: string;
  to: string;
  replace: boolean;
  batchRows: number | undefined;
}

function parse(argv: string[]): Arguments {
  const named = new Map<string, string>();
  let replace = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--replace') replace = true;
    else if (/^--(from|to|batch)$/.test(arg) && argv[i + 1] !== undefined) named.set(arg.slice(2), argv[++i] ?? '');
    else if (/^--(from|to|batch)=/.test(arg)) named.set(arg.slice(2, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1));
    else throw new CopyError(`unknown argument ${arg.startsWith('postgres') ? '(a URL)' : arg}\n${USAGE}`);
  }
  const from = named.get('from');
  const to = named.get('to');
  if (!from || !/^sqlite:./.test(from)) throw new CopyError(`--from must be sqlite:PATH\n${USAGE}`);
  if (!to || !/^postgres(ql)?:\/\//.test(to)) throw new CopyError(`--to must be a postgres:// URL\n${USAGE}`);
  const batch = named.get('batch');
  if (batch !== undefined && !/^[1-9]\d{0,5}$/.test(batch)) throw new CopyError(`--batch must be a number of rows\n${USAGE}`);
  return { from: resolve(from.slice('sqlite:'.length)), to, replace, batchRows: batch === undefined ? undefined : Number(batch) };
}

async function main() {
  const args = parse(process.argv.slice(2));
  console.log(`Copying ${args.from} to ${describePostgresUrl(args.to)}`);
  const source = connectSqlite(args.from, { readonly: true });
  try {
    const target = await openDatabase('', args.to);
    try {
      const copies = await copyDatabase(source, target, { replace: args.replace, batchRows: args.batchRows, log: (line) => console.log(`  ${line}`) });
      const rows = copies.reduce((sum, copy) => sum + copy.rows, 0);
      console.log(`Done: ${copies.length} tables, ${rows} rows. Start the instances with DATABASE_URL set to the target.`);
    } finally {
      await target.destroy();
    }
  } finally {
    await source.destroy();
  }
}

main().catch((error: unknown) => {
  // Errors of pg can quote connection details; ours and SQLite's say what to do.
  console.error(error instanceof CopyError ? error.message : `migrate-db failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
