/**
 * Copies between storages run on the server: "Copy to…" of a 300 MiB folder from the server's disk into a bucket
 * starts a job, the tab closes, and a tab opened again shows the task where the job is until it ends completed,
 * every byte in place. A sync schedule made in mount management shows its next run, its dry run lists what it would
 * copy, and "run now" starts a job the admin's task manager shows to its end.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminToken, animationsEnded, loginAsAdmin, newPerson, seriousA11yViolations, taskEnds } from './harness';
import { adminApi, mountBucket, storedTree } from './mounts';
import { useSuite } from './suite';

const suite = useSuite({}, { s3: true });
let token = '';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const MIB = 1024 * 1024;

const listbox = (page: Page) => page.getByRole('listbox', { name: 'Files and folders' });
const option = (page: Page, name: string) => listbox(page).locator(`[role="option"][data-path$="/${name}/"]`);

/** A folder of 300 MiB on the server's disk (three large files and some small ones), written where LOCAL keeps it. */
async function bigFolderOnDisk(): Promise<Map<string, string>> {
  const configs = (await (await fetch(`${suite.server.url}/api/s3-configs`, { headers: { Authorization: `Bearer ${token}` } })).json()) as {
    data: { id: string; storage_type: string }[];
  };
  const local = configs.data.find((config) => config.storage_type === 'LOCAL');
  if (!local) throw new Error('no LOCAL storage');
  const folder = join(suite.server.dataDir, 'storage', local.id, 'archive');
  mkdirSync(join(folder, 'notes'), { recursive: true });
  const hashes = new Map<string, string>();
  for (const [name, size] of [['one.bin', 100 * MIB], ['two.bin', 100 * MIB], ['three.bin', 100 * MIB - 20 * 4096]] as const) {
    const bytes = randomBytes(size);
    writeFileSync(join(folder, name), bytes);
    hashes.set(name, sha256(bytes));
  }
  for (let index = 0; index < 20; index++) {
    const bytes = randomBytes(4096);
    writeFileSync(join(folder, 'notes', `note-${index}.txt`), bytes);
    hashes.set(`notes/note-${index}.txt`, sha256(bytes));
  }
  return hashes;
}

beforeAll(async () => {
  token = await adminToken(suite.server.url);
  await mountBucket(suite.server.url, token, suite.s3);
}, 60_000);

describe('server jobs', () => {
  it('“Copy to…” between storages goes on without the tab, and the tab opened again follows it to the end', async () => {
    const hashes = await bigFolderOnDisk();
    const first = await newPerson(suite.browser);
    await loginAsAdmin(first.page, suite.server.url);
    await first.page.goto(`${suite.server.url}/mount-explorer/local`);
    let bytesThroughPage = 0;
    first.page.context().on('request', (request) => request.method() === 'PUT' && (bytesThroughPage += request.postDataBuffer()?.length ?? 0));
    await option(first.page, 'archive').click();
    await first.page.getByRole('button', { name: 'Copy to…' }).click();
    const dialog = first.page.getByRole('dialog', { name: /^Copy 1 items to/ });
    await dialog.getByRole('button', { name: 'Up one level' }).click();
    await dialog.getByText('Folder: Root').waitFor();
    await dialog.getByRole('list', { name: 'Folders' }).getByRole('button', { name: 's3', exact: true }).click();
    await dialog.getByText('Folder: s3').waitFor();
    const created = first.page.waitForResponse((response) => response.url().endsWith('/api/admin/jobs') && response.request().method() === 'POST');
    await dialog.getByRole('button', { name: 'Copy here' }).click();
    const job = ((await (await created).json()) as { data: { id: string } }).data;
    await first.page.close();
    expect(bytesThroughPage).toBe(0);

    // The job goes on with no tab open; a new tab of the same browser shows its task until it ends.
    const second = await first.context.newPage();
    await second.goto(`${suite.server.url}/mount-explorer/s3`);
    expect(await taskEnds(second, 'Copy to /s3/', 'Completed', 240_000)).toContain('23 done, 0 skipped, 0 failed');
    const answer = (await (await adminApi(suite.server.url, token)(`jobs/${job.id}`)).json()) as { data: { status: string; bytes: { done: number } } };
    expect(answer.data).toMatchObject({ status: 'completed', bytes: { done: 300 * MIB } });
    expect(Object.fromEntries(await storedTree(suite.server.url, token, '/s3/archive/'))).toEqual(Object.fromEntries(hashes));
    expect(await suite.s3.pendingUploads()).toEqual([]);
    expect(first.errors).toEqual([]);
  }, 360_000);

  it('a sync schedule shows its next run and its dry run, and “run now” is a job the task manager follows', async () => {
    const api = adminApi(suite.server.url, token);
    for (const name of ['a.txt', 'b.txt']) {
      const form = new FormData();
      form.append('path', '/local/notes/');
      form.append('file', new Blob([`note ${name}\n`]), name);
      expect((await fetch(`${suite.server.url}/api/admin/fs/upload`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form })).status).toBe(201);
    }
    const { page, errors } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    await page.goto(`${suite.server.url}/admin/mount-management`);
    const section = page.getByRole('region', { name: 'Sync schedules' });
    await section.getByText('No sync schedules yet').waitFor();
    await section.getByRole('button', { name: 'Create sync schedule' }).click();
    const form = page.getByRole('dialog', { name: 'Create sync schedule' });
    await form.getByLabel('Source').fill('/local/notes');
    await form.getByLabel('Target').fill('/local/notes/copy');
    await form.getByRole('button', { name: 'Create sync schedule' }).click();
    await form.getByText('The target must not lie inside the source, nor the source inside the target').waitFor();
    await form.getByLabel('Target').fill('/s3/notes-backup');
    await form.getByLabel('Mode').selectOption('mirror');
    await form.getByRole('button', { name: 'Create sync schedule' }).click();
    await form.getByText('Confirm that the mirror may delete files in the target').waitFor();
    await form.getByLabel('Mode').selectOption('copy-new-and-changed');
    await form.getByRole('button', { name: 'Create sync schedule' }).click();
    await form.waitFor({ state: 'hidden' });

    const row = section.locator('[data-sync-source="/local/notes"]');
    await row.getByText('0 3 * * *').waitFor();
    expect(await row.locator('time').first().getAttribute('datetime')).toMatch(/T03:00:00/);
    await animationsEnded(page);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await row.getByRole('button', { name: 'Dry run of /local/notes → /s3/notes-backup' }).click();
    const plan = page.getByRole('dialog', { name: 'What a run of /local/notes → /s3/notes-backup would do now' });
    await plan.getByText('Copy 2 files (', { exact: false }).waitFor();
    expect(await plan.getByRole('list', { name: 'Files to copy' }).getByRole('listitem').count()).toBe(2);
    await plan.getByRole('button', { name: 'Close', exact: true }).first().click();

    await row.getByRole('button', { name: 'Run /local/notes → /s3/notes-backup now' }).click();
    await page.getByText('Sync of /local/notes → /s3/notes-backup started: see Tasks').first().waitFor();
    await page.goto(`${suite.server.url}/admin/tasks`);
    await page.locator('li[data-outcome="completed"]').filter({ hasText: '/s3/notes-backup' }).first().waitFor({ timeout: 60_000 });
    expect(Object.fromEntries(await storedTree(suite.server.url, token, '/s3/notes-backup/'))).toEqual({
      'a.txt': sha256(Buffer.from('note a.txt\n')),
      'b.txt': sha256(Buffer.from('note b.txt\n')),
    });
    const schedules = (await (await api('sync-schedules')).json()) as { data: { lastJobId: string | null }[] };
    expect(schedules.data[0]?.lastJobId).toBeTruthy();
    expect(errors).toEqual([]);
  }, 180_000);
});
