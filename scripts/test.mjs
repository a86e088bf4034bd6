// `npm test`: every check CI runs, in order, stopping at the first failure, then each step's time and one summary line.
import { Buffer } from 'node:buffer';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

const node = process.execPath;
const polyfills = ['--import', './scripts/node20-polyfills.mjs'];
const reportDir = mkdtempSync(join(tmpdir(), 'clipstash-test-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
/** Each step's title and seconds, printed at the end: where CI's time goes. */
const times = [];

/** Runs `work` as a step: its title before, its time after (kept for the summary). */
function step(title, work) {
  console.log(`\n▶ ${title}`);
  const started = performance.now();
  try {
    return work();
  } finally {
    const seconds = (performance.now() - started) / 1000;
    times.push({ title, seconds });
    console.log(`◀ ${title}: ${formatSeconds(seconds)}`);
  }
}

function formatSeconds(seconds) {
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${whole % 60} s`;
}

const childEnv = (env) => ({ ...process.env, FORCE_COLOR: process.env.CI ? '0' : '1', ...env });

/** A command of `npm test`: `afterwards` reads what it left (a test report) once it has ended, failed or not. */
const job = (title, args, { afterwards = () => {}, env = {} } = {}) => ({ title, args, afterwards, env });

function run({ title, args, afterwards, env }) {
  const result = step(title, () => spawnSync(node, args, { stdio: 'inherit', env: childEnv(env) }));
  afterwards();
  if (result.status !== 0) finish(`✖ ${title} failed`);
}

/**
 * Runs `jobs` at the same time, for steps that each leave a core idle: each one's output is held and printed whole
 * when it ends, so that theirs do not interleave. Fails as `run` does once all have ended.
 */
async function together(jobs) {
  console.log(`\n▶ at once: ${jobs.map(({ title }) => title).join(' | ')}`);
  const ended = await Promise.all(
    jobs.map(
      ({ title, args, env }) =>
        new Promise((done) => {
          const started = performance.now();
          const child = spawn(node, args, { env: childEnv(env) });
          const output = [];
          child.stdout.on('data', (chunk) => output.push(chunk));
          child.stderr.on('data', (chunk) => output.push(chunk));
          child.on('close', (status) => {
            const seconds = (performance.now() - started) / 1000;
            console.log(`\n▶ ${title}\n${Buffer.concat(output).toString()}◀ ${title}: ${formatSeconds(seconds)}`);
            times.push({ title, seconds });
            done({ title, status });
          });
        }),
    ),
  );
  for (const { afterwards } of jobs) afterwards();
  const failed = ended.filter(({ status }) => status !== 0).map(({ title }) => title);
  if (failed.length > 0) finish(`✖ ${failed.join(', ')} failed`);
}

/** Vitest projects (optionally only some folders, with extra environment), their counts added to the totals. */
function vitest(projects, { title = projects.join(' + '), filters = [], env = {} } = {}) {
  const report = join(reportDir, `${title.replace(/\W+/g, '-')}.json`);
  const args = [...polyfills, 'node_modules/vitest/vitest.mjs', 'run', ...projects.flatMap((project) => ['--project', project]), ...filters, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`];
  const afterwards = () => {
    if (!existsSync(report)) return;
    const { numPassedTests, numFailedTests, numPendingTests, numTodoTests, testResults } = JSON.parse(readFileSync(report, 'utf8'));
    slowFiles(testResults);
    totals.passed += numPassedTests;
    totals.failed += numFailedTests;
    totals.skipped += numPendingTests + numTodoTests;
  };
  return job(`vitest: ${title}`, args, { afterwards, env });
}

/** A file's own time above which it is named after its project: where to look when CI's time grows. */
const SLOW_FILE_SECONDS = 45;

function slowFiles(testResults = []) {
  const slow = testResults
    .map(({ name, startTime, endTime }) => ({ name: name.replace(`${process.cwd()}/`, ''), seconds: (endTime - startTime) / 1000 }))
    .filter(({ seconds }) => seconds > SLOW_FILE_SECONDS)
    .sort((a, b) => b.seconds - a.seconds);
  if (slow.length > 0) console.log(`Files over ${SLOW_FILE_SECONDS} s: ${slow.map(({ name, seconds }) => `${name} ${formatSeconds(seconds)}`).join(', ')}`);
}

/** Debian's PostgreSQL (apt-get install postgresql): without it the server suite runs on SQLite only, and says so. */
const postgresInstalled = existsSync(join(process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin', 'initdb'));

/**
 * Fails when the sources hold messages the catalogs do not (someone forgot `npm run extract`). Lingui extracts into
 * a copy of the catalogs (a configuration of its own over the project's, in a temp folder): src/locales is only
 * read, so a run stopped half-way leaves the tree as it was.
 */
function catalogsUpToDate() {
  const locales = resolve('src/locales');
  const copy = mkdtempSync(join(tmpdir(), 'clipstash-catalogs-'));
  try {
    cpSync(locales, copy, { recursive: true, filter: (path) => !path.endsWith('.ts') });
    const config = join(copy, 'lingui.config.ts');
    writeFileSync(
      config,
      `import config from ${JSON.stringify(resolve('lingui.config.ts'))};\n` +
        `const catalogs = config.catalogs.map((catalog) => ({ ...catalog, path: catalog.path.replace('<rootDir>/src/locales', ${JSON.stringify(copy)}) }));\n` +
        `if (catalogs.some((catalog) => !catalog.path.startsWith(${JSON.stringify(copy)}))) throw new Error('a catalog outside src/locales: test.mjs cannot check it');\n` +
        `export default { ...config, rootDir: ${JSON.stringify(resolve('.'))}, catalogs };\n`,
    );
    const catalogs = ['en-US', 'zh-CN'].flatMap((locale) => ['visitor-paste', 'visitor-file', 'messages'].map((name) => `${locale}/${name}.po`));
    const ids = (text) => [...text.matchAll(/^msgid (".*")$/gm)].map((m) => m[1]).sort().join('\n');
    const extract = spawnSync(node, ['node_modules/@lingui/cli/dist/lingui.js', 'extract', '--clean', '--config', config], { encoding: 'utf8' });
    if (extract.status !== 0) finish(`✖ lingui extract failed:\n${extract.stdout}\n${extract.stderr}`);
    const stale = catalogs.filter((file) => ids(readFileSync(join(locales, file), 'utf8')) !== ids(readFileSync(join(copy, file), 'utf8')));
    if (stale.length > 0) finish(`✖ The catalogs are stale (${stale.join(', ')}): run \`npm run extract\` and translate the new zh-CN messages.`);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

function finish(failure) {
  rmSync(reportDir, { recursive: true, force: true });
  if (failure) console.error(`\n${failure}`);
  if (times.length > 0) console.log(`\nTimes: ${times.map(({ title, seconds }) => `${title} ${formatSeconds(seconds)}`).join(', ')}`);
  console.log(`\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
  process.exit(failure || totals.failed > 0 ? 1 : 0);
}

const started = performance.now();
run(job('packages support the declared Node (package-lock.json engines)', ['scripts/check-engines.mjs']));
// tsc and eslint each keep one core busy: side by side they take little more than the longer of the two.
await together([job('typecheck (tsc --noEmit)', ['node_modules/typescript/bin/tsc', '--noEmit', '-p', '.']), job('lint (eslint, import directions)', ['node_modules/eslint/bin/eslint.js', '.'])]);
step('translation catalogs match the sources', catalogsUpToDate);
run(vitest(['unit', 'unit-isolated']));
if (postgresInstalled) {
  // The server's tests a second time, every test app on a throw-away PostgreSQL cluster (less the storage drivers'
  // own tests, which touch no database: vite.config.ts).
  run(vitest(['unit', 'unit-isolated'], { title: 'server on PostgreSQL', filters: ['server/'], env: { TEST_DATABASE: 'postgres' } }));
} else {
  console.log('\n▷ PostgreSQL is not installed (apt-get install postgresql): the server suite ran on SQLite only');
}
run(vitest(['e2e']));
// Every bench at a size that takes seconds: it still runs and prints its lines (bench/index.ts checks them). Beside
// it, several server instances on PostgreSQL: each of the two spends much of its time waiting on the processes it
// started, and together they keep both cores busy.
const benches = job('benches, smoke size (npm run bench -- --smoke)', ['--import', 'tsx', 'bench/index.ts', '--smoke']);
await together(postgresInstalled ? [vitest(['integration']), benches] : [benches]);
times.push({ title: 'in all', seconds: (performance.now() - started) / 1000 });
finish();
