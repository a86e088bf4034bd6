import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { loginAsAdmin, newPerson } from './harness';
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

describe('remote storages', () => {
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
