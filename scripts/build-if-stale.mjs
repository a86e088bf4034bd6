// Builds the SPA (dist/) and the server (dist-server/) when missing or older than any of their sources. Used by
// `npm start`, the browser tests and the benchmarks.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SERVER_ENTRY } from './server-command.mjs';

const BUILDS = [
  {
    what: 'the app',
    output: 'dist/index.html',
    sources: ['src', 'public', 'contract', 'machines', 'workers', 'index.html', 'vite.config.ts', 'scripts/precompress.mjs', 'lingui.config.ts', 'package.json'],
    command: ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'],
  },
  {
    what: 'the server',
    output: SERVER_ENTRY,
    sources: ['server', 'contract', 'scripts/build-server.mjs', 'package.json'],
    command: ['scripts/build-server.mjs'],
  },
];

function newestChange(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestChange(join(path, name))), stat.mtimeMs);
}

export function buildIfStale(root = process.cwd()) {
  for (const { what, output, sources, command } of BUILDS) {
    const target = join(root, output);
    const builtAt = existsSync(target) ? statSync(target).mtimeMs : 0;
    if (builtAt >= Math.max(...sources.map((source) => newestChange(join(root, source))))) continue;
    console.log(builtAt ? `Sources changed: rebuilding ${what}…` : `Building ${what}…`);
    const build = spawnSync(process.execPath, command, {
      cwd: root,
      stdio: 'inherit',
      // Test runners set NODE_ENV=test, which would make Vite bundle React's development build.
      env: { ...process.env, NODE_ENV: 'production' },
    });
    if (build.status !== 0) throw new Error(`building ${what} failed with exit code ${build.status}`);
  }
}
