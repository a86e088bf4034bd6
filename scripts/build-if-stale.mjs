// Builds the SPA when dist/ is missing or older than any of its sources. Used by `npm start` and the e2e tests.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SOURCES = ['src', 'public', 'contract', 'machines', 'workers', 'index.html', 'vite.config.ts', 'scripts/precompress.mjs', 'lingui.config.ts', 'package.json'];

function newestChange(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestChange(join(path, name))), stat.mtimeMs);
}

export function buildIfStale(root = process.cwd()) {
  const index = join(root, 'dist/index.html');
  const builtAt = existsSync(index) ? statSync(index).mtimeMs : 0;
  if (builtAt >= Math.max(...SOURCES.map((source) => newestChange(join(root, source))))) return;
  console.log(builtAt ? 'Sources changed: rebuilding the app…' : 'Building the app…');
  const build = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
    // Test runners set NODE_ENV=test, which would make Vite bundle React's development build.
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (build.status !== 0) throw new Error(`vite build failed with exit code ${build.status}`);
}
