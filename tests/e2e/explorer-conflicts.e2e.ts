/**
 * Nothing written over unasked in the mount explorer: a folder uploaded again asks once what to do with the names
 * already there (identical files skipped, the changed one kept beside the old), and "Move to…" takes a folder from
 * the server's disk into a bucket with its task row, leaving nothing behind at the source.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminToken, animationsEnded, loginAsAdmin, newPerson, seriousA11yViolations, taskEnds } from './harness';
import { adminApi, mountBucket, storedTree } from './mounts';
import { useSuite } from './suite';

const suite = useSuite({}, { s3: true });
let token = '';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const api = (path: string, init: RequestInit = {}) => adminApi(suite.server.url, token)(path, init);

const tree = (path: string) => storedTree(suite.server.url, token, path);

const listbox = (page: Page) => page.getByRole('listbox', { name: 'Files and folders' });
const option = (page: Page, name: string) => listbox(page).locator(`[role="option"][data-path$="/${name}"], [role="option"][data-path$="/${name}/"]`);

/** A folder `album` on this machine: two photos that stay the same and a note that changes between uploads. */
function albumOnDisk() {
  const root = join(mkdtempSync(join(tmpdir(), 'clipstash-conflicts-')), 'album');
  mkdirSync(join(root, 'trip'), { recursive: true });
  const photo = randomBytes(40_000);
  const other = randomBytes(30_000);
  writeFileSync(join(root, 'photo.jpg'), photo);
  writeFileSync(join(root, 'trip', 'beach.jpg'), other);
  writeFileSync(join(root, 'note.txt'), 'first version\n');
  return { root, photo: sha256(photo), other: sha256(other) };
}

beforeAll(async () => {
  token = await adminToken(suite.server.url);
  await mountBucket(suite.server.url, token, suite.s3);
}, 60_000);

describe('writing into names that exist', () => {
  it('a folder uploaded again asks once: identical files skipped, then the changed one kept beside the old', async () => {
    const album = albumOnDisk();
    const { page, errors } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    await page.goto(`${suite.server.url}/mount-explorer/local`);
    await listbox(page).or(page.getByText('This folder is empty')).first().waitFor();
    await page.getByLabel('Folder to upload').setInputFiles(album.root);
    await option(page, 'album').waitFor({ timeout: 60_000 });
    await expect.poll(async () => (await tree('/local/album/')).size, { timeout: 60_000 }).toBe(3);

    // The same folder again: all three names are there, all identical; skipping sends no byte.
    let groupsSent = 0;
    page.context().on('request', (request) => request.url().includes('/fs/upload-batch') && groupsSent++);
    await page.getByLabel('Folder to upload').setInputFiles(album.root);
    const ask = page.getByRole('dialog', { name: 'Some names already exist' });
    await ask.getByText('3 items of "Upload 3 files to /local/" already exist where they go; 3 of them are identical.').waitFor();
    await animationsEnded(page);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(await ask.getByLabel('Skip identical files (same size and content)').isChecked()).toBe(true);
    await ask.getByRole('button', { name: 'Skip', exact: true }).click();
    expect(await taskEnds(page, 'Upload 3 files to /local/', 'Completed')).toContain('0 done, 3 skipped, 0 failed');
    expect(groupsSent).toBe(0);

    // The note changed on this machine: the two photos are still identical and skipped, the note kept as both.
    writeFileSync(join(album.root, 'note.txt'), 'second, longer version\n');
    await page.getByLabel('Folder to upload').setInputFiles(album.root);
    await ask.getByText('3 items of "Upload 3 files to /local/" already exist where they go; 2 of them are identical.').waitFor();
    await ask.getByRole('button', { name: 'Keep both' }).click();
    expect(await taskEnds(page, 'Upload 3 files to /local/', 'Completed')).toContain('1 done (1 kept both), 2 skipped, 0 failed');
    const stored = await tree('/local/album/');
    expect(Object.fromEntries(stored)).toEqual({
      'photo.jpg': album.photo,
      'trip/beach.jpg': album.other,
      'note.txt': sha256(Buffer.from('first version\n')),
      'note (1).txt': sha256(Buffer.from('second, longer version\n')),
    });
    expect(errors).toEqual([]);
  }, 240_000);

  it('“Move to…” takes a folder from the disk into the bucket: the task row counts it, the source is gone', async () => {
    const files = new Map<string, Buffer>([
      ['a.bin', randomBytes(20_000)],
      ['deeper/b.bin', randomBytes(7 * 1024 * 1024)],
      ['deeper/c.txt', Buffer.from('c\n')],
    ]);
    for (const [name, bytes] of files) {
      const form = new FormData();
      form.append('path', `/local/moving/${name.includes('/') ? `${name.slice(0, name.lastIndexOf('/'))}/` : ''}`);
      form.append('file', new Blob([new Uint8Array(bytes)]), name.split('/').pop());
      const answer = await fetch(`${suite.server.url}/api/admin/fs/upload`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
      expect(answer.status).toBe(201);
    }
    const { page, errors } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    await page.goto(`${suite.server.url}/mount-explorer/local`);
    await option(page, 'moving').click();
    await page.getByRole('button', { name: 'Move to…' }).click();
    const dialog = page.getByRole('dialog', { name: /^Move 1 items to/ });
    await dialog.getByRole('button', { name: 'Up one level' }).click();
    await dialog.getByText('Folder: Root').waitFor();
    await dialog.getByRole('list', { name: 'Folders' }).getByRole('button', { name: 's3', exact: true }).click();
    await dialog.getByText('Folder: s3').waitFor();
    await dialog.getByRole('button', { name: 'Move here' }).click();
    expect(await taskEnds(page, 'Move to /s3/', 'Completed')).toContain('3 done, 0 skipped, 0 failed');

    const moved = await tree('/s3/moving/');
    expect(Object.fromEntries(moved)).toEqual(Object.fromEntries([...files].map(([name, bytes]) => [name, sha256(bytes)])));
    expect((await tree('/local/moving/')).size).toBe(0);
    expect((await api(`fs/get?path=${encodeURIComponent('/local/moving/')}`)).status).toBe(404);
    expect(await suite.s3.pendingUploads()).toEqual([]);
    expect(errors).toEqual([]);
  }, 240_000);
});
