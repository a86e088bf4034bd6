import { spawn, type ChildProcess } from 'node:child_process';
import { SERVER_NODE_ARGS } from '../scripts/server-command.mjs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../tests/e2e/harness';
import { freePort } from '../tests/fixtures/postgres';
import { MiB } from './measure';
import { residentBytes } from './processes';
import { benchSize } from './size';

/** The production server (`npm run serve`) on a data folder and `base`'s port; resolves at its first /api/health answer. */
async function start(dataDir: string, base: URL): Promise<{ child: ChildProcess; ms: number }> {
  const began = performance.now();
  const child = spawn(process.execPath, SERVER_NODE_ARGS, {
    env: { ...process.env, PORT: base.port, HOST: '127.0.0.1', DATA_DIR: dataDir, ADMIN_USERNAME, ADMIN_PASSWORD },
    stdio: 'ignore',
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    const answer = await fetch(new URL('/api/health', base)).catch(() => undefined);
    if (answer?.ok) return { child, ms: performance.now() - began };
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function checked(request: Promise<Response>): Promise<Response> {
  const response = await request;
  if (!response.ok) throw new Error(`${response.url} answered ${response.status}`);
  return response;
}

/** One request of each kind the server answers: page, asset, API reads and writes, an upload and a download. */
async function exercise(origin: string) {
  const page = await (await checked(fetch(`${origin}/paste/x`))).text();
  const asset = /src="(\/assets\/[^"]+\.js)"/.exec(page)?.[1] ?? '/missing-asset';
  await (await checked(fetch(`${origin}${asset}`))).arrayBuffer();
  await (await checked(fetch(`${origin}/api/version`))).json();
  const login = await checked(fetch(`${origin}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: ADMIN_USERNAME, password: ADMIN_PASSWORD }),
  }));
  const { token } = ((await login.json()) as { data: { token: string } }).data;
  const auth = { Authorization: `Bearer ${token}` };
  await checked(
    fetch(`${origin}/api/paste`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ slug: 'bench', content: '# Bench\n\ntext' }),
    }),
  );
  await (await checked(fetch(`${origin}/api/paste/bench`))).json();
  await (await checked(fetch(`${origin}/api/raw/bench`))).text();
  await (await checked(fetch(`${origin}/api/admin/pastes?page=1&limit=10`, { headers: auth }))).json();
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(256 * 1024)]), 'bench.bin');
  form.append('slug', 'benchfile');
  await (await checked(fetch(`${origin}/api/upload`, { method: 'POST', headers: auth, body: form }))).json();
  const info = ((await (await checked(fetch(`${origin}/api/public/files/benchfile`))).json()) as { data: { downloadUrl?: string } }).data;
  await (await checked(fetch(new URL(info.downloadUrl ?? '', origin)))).arrayBuffer();
}

const rssMb = (pid: number) => Math.round(residentBytes(pid) / MiB);

/**
 * `server_start_ms`: spawn of the production server to its first /api/health answer, the median of 5 restarts
 * on a data folder made by a first start (a fresh install also creates the admin, whose password hash takes
 * scrypt's deliberate time). `server_idle_rss_mb`: its memory a second after one request of each kind.
 */
export async function server() {
  const restarts = benchSize(5, 1);
  // A free port, not a fixed one: `npm test` runs this bench, perhaps beside another checkout's.
  const base = new URL(`http://127.0.0.1:${await freePort()}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'clipstash-bench-'));
  try {
    await stop((await start(dataDir, base)).child);
    const times: number[] = [];
    for (let round = 1; round <= restarts; round++) {
      const { child, ms } = await start(dataDir, base);
      times.push(ms);
      if (round < restarts) {
        await stop(child);
        continue;
      }
      await exercise(base.origin);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const rss = rssMb(child.pid ?? 0);
      await stop(child);
      times.sort((a, b) => a - b);
      console.log(`server_start_ms: ${Math.round(times[Math.floor(times.length / 2)] ?? 0)}`);
      console.log(`server_idle_rss_mb: ${rss}`);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
