import { createHash, randomBytes } from 'node:crypto';
import { chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ftpServerAvailable, startFtpServer } from '../fixtures/ftp-server';
import { startSshd } from '../fixtures/sftp-server';
import { ADMIN_PASSWORD, ADMIN_USERNAME, adminToken, loginAsAdmin, newPerson, seedMountFile, taskEnds } from './harness';
import { adminApi, storedTree } from './mounts';
import { useSuite } from './suite';

const suite = useSuite();

/** A port of 127.0.0.1 nothing listens on: taken from the system, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const option = (page: Page, name: string) => page.getByRole('listbox', { name: 'Files and folders' }).getByRole('option', { name });

/** Mount management's form, as the admin fills it: a mount of the storage named `storage` at `path`. */
async function mountThroughForm(page: Page, baseUrl: string, storage: string, kind: string, path: string) {
  await page.goto(`${baseUrl}/admin/mount-management`);
  await page.getByRole('button', { name: 'Create mount point' }).first().click();
  const form = page.getByRole('dialog', { name: 'Create mount point' });
  await form.getByLabel('Name').fill(storage);
  await form.getByLabel('Storage').selectOption({ label: `${storage} (${kind})` });
  await form.getByLabel('Mount path').fill(path);
  await form.getByLabel('Cache TTL (seconds)').fill('0');
  await form.getByRole('button', { name: 'Create mount point' }).click();
  await page.getByText('Mount point created').first().waitFor();
}

describe('remote storages', () => {
  it("an admin adds a WebDAV storage on this server's own /dav, mounts it and copies a folder into it from LOCAL", async () => {
    const { page, context, errors } = await newPerson(suite.browser);
    const token = await adminToken(suite.server.url);
    await seedMountFile(suite.server.url, token, '/local/trip', 'day-1.md', '# Day 1');
    await seedMountFile(suite.server.url, token, '/local/trip/photos', 'note.txt', 'a photo note');
    await loginAsAdmin(page, suite.server.url);
    await page.goto(`${suite.server.url}/admin/storage-config`);
    await page.getByRole('button', { name: 'Add storage' }).first().click();
    const form = page.getByRole('dialog', { name: 'Add storage' });
    await form.getByLabel('Storage type').selectOption('WEBDAV');
    await form.getByLabel('Name', { exact: true }).fill('Own DAV');
    await form.getByLabel('WebDAV address').fill(`${suite.server.url}/dav/local/`);
    await form.getByLabel('User name').fill(ADMIN_USERNAME);
    await form.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await form.getByLabel('Folder').fill('from-dav');
    await form.getByLabel('The server is on this machine or the local network (allow a private address)').check();
    // The base folder must exist on the WebDAV server: made there first, as its owner would.
    await adminApi(suite.server.url, token)('fs/mkdir', { method: 'POST', body: JSON.stringify({ path: '/local/from-dav' }) });
    await form.getByRole('button', { name: 'Add storage' }).click();
    await page.getByText('Storage saved').first().waitFor();

    const card = page.locator('li[data-config-name="Own DAV"]');
    await card.getByRole('button', { name: 'Test' }).click();
    const report = page.getByRole('dialog', { name: 'Test of Own DAV' });
    for (const step of ['connect', 'list', 'write', 'read', 'delete']) {
      await report.locator(`li[data-step="${step}"][data-ok="true"]`).waitFor();
    }
    await page.keyboard.press('Escape');

    await mountThroughForm(page, suite.server.url, 'Own DAV', 'WEBDAV', '/dav-mount');
    await page.goto(`${suite.server.url}/mount-explorer/local`);
    await option(page, 'trip').click();
    await page.getByRole('button', { name: 'Copy to…' }).click();
    const dialog = page.getByRole('dialog', { name: /^Copy 1 items to/ });
    await dialog.getByRole('button', { name: 'Up one level' }).click();
    await dialog.getByRole('list', { name: 'Folders' }).getByRole('button', { name: 'dav-mount', exact: true }).click();
    await dialog.getByText('Folder: dav-mount').waitFor();
    await dialog.getByRole('button', { name: 'Copy here' }).click();
    expect(await taskEnds(page, 'Copy to /dav-mount/', 'Completed')).toContain('2 done, 0 skipped, 0 failed');

    await page.goto(`${suite.server.url}/mount-explorer/dav-mount/trip`);
    await option(page, 'day-1.md').waitFor();
    await option(page, 'photos').waitFor();
    // Through WebDAV the files landed in the LOCAL storage's folder of the config, byte for byte.
    expect(await storedTree(suite.server.url, token, '/dav-mount/trip')).toEqual(await storedTree(suite.server.url, token, '/local/trip'));
    expect([...(await storedTree(suite.server.url, token, '/local/from-dav/trip')).keys()].sort()).toEqual(['day-1.md', 'photos/note.txt']);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('an admin browses an SFTP mount, edits a text file on it and uploads a file of several parts', async () => {
    const sshd = await startSshd();
    try {
      const notes = `${sshd.root}/notes.txt`;
      writeFileSync(notes, 'first line');
      const owner = statSync(sshd.root);
      chownSync(notes, owner.uid, owner.gid);
      const token = await adminToken(suite.server.url);
      const config = await fetch(`${suite.server.url}/api/s3-configs`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          storage_type: 'SFTP',
          name: 'Backup server',
          host: sshd.host,
          port: sshd.port,
          username: sshd.username,
          private_key: sshd.privateKey,
          host_key_sha256: sshd.hostKeySha256,
          default_folder: sshd.root.replace(/^\//, ''),
          allow_private_host: true,
        }),
      });
      expect(config.status).toBe(201);

      const { page, context, errors } = await newPerson(suite.browser);
      await loginAsAdmin(page, suite.server.url);
      await mountThroughForm(page, suite.server.url, 'Backup server', 'SFTP', '/backup');
      await page.goto(`${suite.server.url}/mount-explorer/backup`);
      await option(page, 'notes.txt').dblclick();
      const preview = page.getByRole('region', { name: 'Preview of notes.txt' });
      await preview.getByText('first line').waitFor();
      await preview.getByRole('button', { name: 'Edit' }).click();
      await preview.getByRole('textbox', { name: 'Content of notes.txt' }).click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type(' and more');
      await preview.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Saved notes.txt').first().waitFor();
      expect(readFileSync(notes, 'utf8')).toBe('first line and more');

      // Three parts: written on to the SFTP server while they arrive, renamed into place when the upload completes.
      const bytes = randomBytes(12 * 1024 * 1024 + 321);
      const file = join(mkdtempSync(join(tmpdir(), 'clipstash-sftp-upload-')), 'twelve.bin');
      writeFileSync(file, bytes);
      await page.goto(`${suite.server.url}/mount-explorer/backup`);
      await option(page, 'notes.txt').waitFor();
      await page.getByLabel('Files to upload').setInputFiles(file);
      await page.getByRole('button', { name: /^Tasks/ }).click();
      await page.locator('li[data-file-name="twelve.bin"][data-task-status="completed"]').waitFor({ timeout: 60_000 });
      await page.getByRole('dialog', { name: 'Task manager' }).getByRole('button', { name: 'Close', exact: true }).click();
      await option(page, 'twelve.bin').waitFor();
      expect(createHash('sha256').update(readFileSync(`${sshd.root}/twelve.bin`)).digest('hex')).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(readdirSync(sshd.root).sort()).toEqual(['notes.txt', 'twelve.bin']);
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      await sshd.stop();
    }
  });


  it.runIf(ftpServerAvailable())('an upload to an FTP mount completes whole though the FTP server restarts in the middle of it', async () => {
    const ftp = await startFtpServer();
    try {
      const folder = join(ftp.directory, 'files');
      mkdirSync(folder);
      const token = await adminToken(suite.server.url);
      const config = await fetch(`${suite.server.url}/api/s3-configs`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ storage_type: 'FTP', name: 'NAS', host: ftp.host, port: ftp.port, username: ftp.username, password: ftp.password, tls: 'none', default_folder: 'files', allow_private_host: true }),
      });
      expect(config.status).toBe(201);
      const { data } = (await config.json()) as { data: { id: string } };
      const mount = await adminApi(suite.server.url, token)('mounts', {
        method: 'POST',
        body: JSON.stringify({ name: 'NAS', storage_type: 'FTP', storage_config_id: data.id, mount_path: '/nas', cache_ttl: 0 }),
      });
      expect(mount.status).toBe(201);

      const { page, context } = await newPerson(suite.browser);
      await loginAsAdmin(page, suite.server.url);
      let partsSent = 0;
      page.on('request', (request) => {
        if (request.method() === 'PUT' && request.url().includes('/api/local-storage/')) partsSent += 1;
      });
      // Twelve parts, sent on to the FTP server as they arrive, unstaged.
      const bytes = randomBytes(12 * 5 * 1024 * 1024 - 77);
      const file = join(mkdtempSync(join(tmpdir(), 'clipstash-ftp-upload-')), 'sixty.bin');
      writeFileSync(file, bytes);
      await page.goto(`${suite.server.url}/mount-explorer/nas`);
      await page.getByLabel('Files to upload').setInputFiles(file);
      // Once the file has begun on the server, the server stops where it is (the upload cannot end meanwhile), then its
      // connections are cut and it starts again.
      await expect.poll(() => readdirSync(folder).some((name) => name.startsWith('.clipstash-partial-')), { interval: 5, timeout: 30_000 }).toBe(true);
      ftp.freeze();
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Parts sent from now on take a moment, so that the row's word for sending the lost ones again can be read.
      await context.route('**/api/local-storage/**', async (route) => {
        if (route.request().method() === 'PUT') await new Promise((resolve) => setTimeout(resolve, 1000));
        await route.continue();
      });
      await ftp.kill();
      await ftp.restart();
      await page.getByRole('button', { name: /^Tasks/ }).click();
      const row = page.locator('li[data-file-name="sixty.bin"]');
      await row.getByText(/Sending lost parts again/).waitFor({ timeout: 30_000 });
      await context.unrouteAll();
      await page.locator('li[data-file-name="sixty.bin"][data-task-status="completed"]').waitFor({ timeout: 45_000 });
      // The parts the cut lost were sent again.
      expect(partsSent).toBeGreaterThan(12);
      expect(createHash('sha256').update(readFileSync(join(folder, 'sixty.bin'))).digest('hex')).toBe(createHash('sha256').update(bytes).digest('hex'));
      await expect.poll(() => readdirSync(folder), { timeout: 20_000 }).toEqual(['sixty.bin']);
      await context.close();
    } finally {
      await ftp.stop();
    }
  });

  it('an admin adds an SFTP storage on a phone-sized screen, and its test names the step that failed in plain words', async () => {
    const { page, context, errors } = await newPerson(suite.browser, { viewport: { width: 360, height: 740 } });
    await loginAsAdmin(page, suite.server.url);
    await page.goto(`${suite.server.url}/admin/storage-config`);
    await page.getByRole('button', { name: 'Add storage' }).first().click();
    const form = page.getByRole('dialog', { name: 'Add storage' });
    await form.getByLabel('Storage type').selectOption('SFTP');
    await form.getByLabel('Name', { exact: true }).fill('Backup box');
    await form.getByRole('button', { name: 'Add storage' }).click();
    await form.getByText("Enter the server's host name or IP address").waitFor();
    await form.getByLabel('Host', { exact: true }).fill('127.0.0.1');
    await form.getByLabel('Port', { exact: true }).fill(String(await closedPort()));
    await form.getByLabel('User name').fill('clip');
    await form.getByRole('button', { name: 'Add storage' }).click();
    await form.getByText('Enter a password or a private key').waitFor();
    await form.getByLabel('Password (or a private key below)').fill('not-a-real-password');
    await form.getByRole('button', { name: 'Add storage' }).click();
    // Loopback is refused until the admin says the server is on this machine or the local network.
    await form.getByRole('alert').filter({ hasText: 'Private or loopback addresses are not allowed (127.0.0.1)' }).waitFor();
    await form.getByLabel('The server is on this machine or the local network (allow a private address)').check();
    await form.getByRole('button', { name: 'Add storage' }).click();
    await page.getByText('Storage saved').first().waitFor();

    const card = page.locator('li[data-config-name="Backup box"]');
    expect(await card.textContent()).toContain('SFTP');
    // The page fits the narrow screen: nothing scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    await card.getByRole('button', { name: 'Test' }).click();
    const report = page.getByRole('dialog', { name: 'Test of Backup box' });
    const connect = report.locator('li[data-step="connect"]');
    await connect.waitFor();
    expect(await connect.getAttribute('data-ok')).toBe('false');
    expect(await connect.textContent()).toMatch(/^Connect: failedCould not connect or sign in: \S/);
    for (const step of ['list', 'write', 'read', 'delete']) {
      expect(await report.locator(`li[data-step="${step}"]`).textContent()).toContain('Not tried: an earlier step failed');
    }

    // Editing never shows the stored password, and says a blank one keeps it.
    await page.keyboard.press('Escape');
    await card.getByRole('button', { name: 'Edit Backup box' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit storage' });
    expect(await edit.getByLabel('Password (or a private key below)').inputValue()).toBe('');
    await edit.getByText('Leave blank to keep the stored one').first().waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
