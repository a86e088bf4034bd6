import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { storageConfigSchema } from '../../../contract/storage';
import { createMount } from '../../../tests/fixtures/fs';
import { startS3rver, type RunningS3rver } from '../../../tests/fixtures/s3rver';
import { ADMIN_PASSWORD, ADMIN_USERNAME, expectOk, useTestApp } from '../../../tests/fixtures/test-app';

vi.setConfig({ testTimeout: 300_000, hookTimeout: 60_000 });

/** Debian's litmus (`apt-get install litmus`; CI installs it): the WebDAV conformance suite. */
const LITMUS = '/usr/bin/litmus';
const SUITES = ['basic', 'copymove', 'props', 'locks', 'http'];

interface LitmusRun {
  output: string;
  /** suite → [tests run, passed, failed] */
  summaries: Map<string, { run: number; passed: number; failed: number }>;
  warnings: string[];
}

function runLitmus(url: string, user: string, password: string): Promise<LitmusRun> {
  return new Promise((resolve, reject) => {
    // litmus writes debug.log and child.log into its working folder: a scratch one, not the checkout.
    const scratch = mkdtempSync(join(tmpdir(), 'clipstash-litmus-'));
    const child = spawn(LITMUS, [url, user, password], { cwd: scratch, env: { ...process.env, TESTS: SUITES.join(' ') } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => {
      rmSync(scratch, { recursive: true, force: true });
      const summaries = new Map(
        [...output.matchAll(/summary for `(\w+)': of (\d+) tests run: (\d+) passed, (\d+) failed/g)].map((m) => [
          m[1] ?? '',
          { run: Number(m[2]), passed: Number(m[3]), failed: Number(m[4]) },
        ]),
      );
      resolve({ output, summaries, warnings: [...output.matchAll(/WARNING: (.*)/g)].map((m) => m[1] ?? '') });
    });
  });
}

describe.skipIf(!existsSync(LITMUS))('litmus passes against WebDAV on a LOCAL and an S3 mount', () => {
  const t = useTestApp({ login: false });
  let s3: RunningS3rver;
  let origin: string;

  beforeAll(async () => {
    const token = await t.login();
    s3 = await startS3rver();
    const config = await expectOk(await t.request('/api/s3-configs', { token, json: s3.configRequest({ default_folder: 'dav' }) }), storageConfigSchema, 201);
    await createMount(t, token, { name: 'Bucket', storage_type: 'S3', storage_config_id: config.id, mount_path: '/bucket', cache_ttl: 60 });
    origin = await t.listen();
  });
  afterAll(async () => {
    await s3.stop();
  });

  for (const mount of ['local', 'bucket']) {
    it(`every test of ${SUITES.join(', ')} passes on /${mount}`, async () => {
      const run = await runLitmus(`${origin}/dav/${mount}/`, ADMIN_USERNAME, ADMIN_PASSWORD);
      for (const suite of SUITES) {
        expect(run.summaries.get(suite), `${suite} ran\n${run.output}`).toBeDefined();
        expect(run.summaries.get(suite)?.failed, `${suite} failures\n${run.output}`).toBe(0);
      }
      // The one warning litmus may give (docs/mounts-and-webdav.md) is about a fragment it sends, which we refuse.
      expect(run.warnings, run.output).toEqual([]);
    });
  }
});
