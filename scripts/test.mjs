// `npm test`: every check CI runs, in order, stopping at the first failure, then one summary line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const node = process.execPath;
const polyfills = ['--import', './scripts/node20-polyfills.mjs'];
const reportDir = mkdtempSync(join(tmpdir(), 'clipstash-test-'));
const totals = { passed: 0, failed: 0, skipped: 0 };

function run(title, args, afterwards = () => {}, env = {}) {
  console.log(`\n▶ ${title}`);
  const result = spawnSync(node, args, { stdio: 'inherit', env: { ...process.env, FORCE_COLOR: process.env.CI ? '0' : '1', ...env } });
  afterwards();
  if (result.status !== 0) finish(`✖ ${title} failed`);
}

/** One vitest project (optionally only some folders, with extra environment), its counts added to the totals. */
function vitest(project, { title = project, filters = [], env = {} } = {}) {
  const report = join(reportDir, `${title.replace(/\W+/g, '-')}.json`);
  const args = [...polyfills, 'node_modules/vitest/vitest.mjs', 'run', '--project', project, ...filters, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`];
  run(`vitest: ${title}`, args, () => {
    if (!existsSync(report)) return;
    const { numPassedTests, numFailedTests, numPendingTests, numTodoTests } = JSON.parse(readFileSync(report, 'utf8'));
    totals.passed += numPassedTests;
    totals.failed += numFailedTests;
    totals.skipped += numPendingTests + numTodoTests;
  }, env);
}

/** Debian's PostgreSQL (apt-get install postgresql): without it the server suite runs on SQLite only, and says so. */
const postgresInstalled = existsSync(join(process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin', 'initdb'));

/** Fails when the sources hold messages the catalogs do not (someone forgot `npm run extract`). */
function catalogsUpToDate() {
  const catalogs = ['en-US', 'zh-CN'].flatMap((locale) => ['visitor', 'messages'].map((name) => `src/locales/${locale}/${name}.po`));
  const before = catalogs.map((file) => readFileSync(file, 'utf8'));
  const ids = (text) => [...text.matchAll(/^msgid (".*")$/gm)].map((m) => m[1]).sort().join('\n');
  console.log('\n▶ translation catalogs match the sources');
  const extract = spawnSync(node, ['node_modules/@lingui/cli/dist/lingui.js', 'extract', '--clean'], { encoding: 'utf8' });
  const after = catalogs.map((file) => readFileSync(file, 'utf8'));
  catalogs.forEach((file, index) => writeFileSync(file, before[index]));
  if (extract.status !== 0) finish(`✖ lingui extract failed:\n${extract.stderr}`);
  if (before.some((text, index) => ids(text) !== ids(after[index]))) {
    finish('✖ The catalogs are stale: run `npm run extract` and translate the new zh-CN messages.');
  }
}

function finish(failure) {
  rmSync(reportDir, { recursive: true, force: true });
  if (failure) console.error(`\n${failure}`);
  console.log(`\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
  process.exit(failure || totals.failed > 0 ? 1 : 0);
}

run('typecheck (tsc --noEmit)', ['node_modules/typescript/bin/tsc', '--noEmit', '-p', '.']);
run('lint (eslint, import directions)', ['node_modules/eslint/bin/eslint.js', '.']);
catalogsUpToDate();
vitest('unit');
if (postgresInstalled) {
  // The server's tests a second time, every test app on a throw-away PostgreSQL cluster; then several instances.
  vitest('unit', { title: 'server on PostgreSQL', filters: ['server/'], env: { TEST_DATABASE: 'postgres' } });
  vitest('integration');
} else {
  console.log('\n▷ PostgreSQL is not installed (apt-get install postgresql): the server suite ran on SQLite only');
}
vitest('e2e');
finish();
