/**
 * `npm run admin -- reset-2fa [--username NAME]`, on the server's console: removes the second factor (authenticator
 * app, recovery codes, passkeys) of the admin who lost their device; the password alone logs in again. Opens the
 * database the server is configured with (DATA_DIR or DATABASE_URL, as the server reads them).
 */
import { ConfigError, readConfig } from '../config';
import { openDatabase } from '../db/database';
import { clearSecondFactors } from '../features/two-factor/second-factors';

const USAGE = 'usage: npm run admin -- reset-2fa [--username NAME]';

class UsageError extends Error {}

function parse(argv: string[]): { username: string | undefined } {
  const [command, ...rest] = argv;
  if (command !== 'reset-2fa') throw new UsageError(command ? `unknown command ${command}\n${USAGE}` : USAGE);
  if (rest.length === 0) return { username: undefined };
  if (rest[0] === '--username' && rest[1] && rest.length === 2) return { username: rest[1] };
  throw new UsageError(`unknown arguments ${rest.join(' ')}\n${USAGE}`);
}

async function main() {
  const { username } = parse(process.argv.slice(2));
  const config = readConfig();
  const db = await openDatabase(config.dataDir, config.databaseUrl);
  try {
    const admin = await db
      .selectFrom('admins')
      .select(['id', 'username'])
      .where('username', '=', username ?? config.adminUsername)
      .executeTakeFirst();
    if (!admin) throw new UsageError(`no admin named ${username ?? config.adminUsername}\n${USAGE}`);
    await clearSecondFactors(db, admin.id);
    console.log(`Two-factor sign-in of ${admin.username} is off: the password alone logs in. Set it up again under Admin → Settings.`);
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  // Configuration and usage problems say what to do; anything else is summed up without connection details.
  const known = error instanceof UsageError || error instanceof ConfigError;
  console.error(known ? error.message : `admin failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(known ? 2 : 1);
});
