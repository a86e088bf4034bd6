import { describe, expect, it } from 'vitest';
import { a11yInBothThemes, loginAsAdmin, newPerson } from './harness';
import {
  assetCached,
  controlledByServiceWorker,
  createPaste,
  offlineDatabaseKeys,
  offlineDatabaseOwners,
  pasteInOfflineDatabase,
} from './offline';
import { useSuite } from './suite';

const suite = useSuite();

describe('what the offline cache keeps on a shared machine', () => {
  it('a one-time paste read online shows nothing of itself offline; an open one does until "Clear offline data"', async () => {
    const secret = 'Burn after reading: the vault code is 4711.';
    const once = await createPaste(suite.server.url, { content: secret, maxViews: 1, slug: 'once-offline-e2e' });
    const openText = 'Open notes, fine to keep for offline reading.';
    const open = await createPaste(suite.server.url, { content: openText, slug: 'open-offline-e2e' });
    const { page, context, errors } = await newPerson(suite.browser);

    // The visitor reads the one-time paste: the gate, then Show spends its one view.
    await page.goto(`${suite.server.url}/paste/${once}`);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText(secret).waitFor();
    await controlledByServiceWorker(page);
    await assetCached(page, /\/paste-view-[\w-]+\.js$/);
    // Then the open paste, in the same page (the app's own navigation): its answer is stored after the one-time
    // paste's was decided, so once it is in the database the one-time paste's fate is known too.
    // (Home first: the paste page keeps what it opened for as long as it stays mounted.)
    await page.getByRole('link', { name: 'Home' }).click();
    await page.getByText(secret).waitFor({ state: 'detached' });
    await page.evaluate((path) => history.pushState(null, '', path), `/paste/${open}`);
    await page.getByText(openText).waitFor();
    await pasteInOfflineDatabase(page, open);
    expect(await offlineDatabaseKeys(page, 'pastes')).toEqual([open]);

    // The settings dialog, opened once online (its code is then kept for offline use), checked with axe.
    const gear = page.getByRole('button', { name: 'Settings', exact: true });
    await gear.click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByRole('heading', { name: 'Offline data' }).waitFor();
    expect(await a11yInBothThemes(page, 'settings dialog')).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // Offline, the next person at this machine opens the one-time link: nothing of it, a plain message instead.
    await context.setOffline(true);
    await page.goto(`${suite.server.url}/paste/${once}`);
    const failure = page.getByRole('alert').filter({ hasText: 'The share could not be loaded' });
    await failure.getByText('Network error, please check your connection').waitFor();
    expect(await page.locator('body').innerText()).not.toContain('4711');

    // The open paste still reads offline: the cache works.
    await page.goto(`${suite.server.url}/paste/${open}`);
    await page.getByRole('region', { name: 'Shared content' }).getByText(openText).waitFor();

    // "Clear offline data": a confirmation, the focus back on the gear, and the open paste is gone offline too.
    await gear.click();
    await dialog.getByRole('button', { name: 'Clear offline data' }).click();
    await page.getByText('Offline data cleared').first().waitFor();
    await dialog.waitFor({ state: 'detached' });
    await expect(gear.evaluate((button) => button === document.activeElement)).resolves.toBe(true);
    expect(await offlineDatabaseKeys(page, 'pastes')).toEqual([]);
    await page.reload();
    await failure.getByText('Network error, please check your connection').waitFor();
    expect(await page.locator('body').innerText()).not.toContain(openText);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('signing out forgets what the admin was answered, and keeps what the visitor read before', async () => {
    const text = 'Read before signing in, kept after signing out.';
    const slug = await createPaste(suite.server.url, { content: text, slug: 'visitor-offline-e2e' });
    const { page, context, errors } = await newPerson(suite.browser);
    await page.goto(`${suite.server.url}/paste/${slug}`);
    await page.getByText(text).waitFor();
    await pasteInOfflineDatabase(page, slug);

    await loginAsAdmin(page, suite.server.url);
    await page.getByRole('navigation', { name: 'Admin panel' }).getByRole('link', { name: 'Text management' }).click();
    await page.getByRole('heading', { name: 'Text management', exact: true }).waitFor();
    // The admin's answers (dashboard, text list) are kept under the session's fingerprint.
    await expect.poll(() => offlineDatabaseOwners(page), { timeout: 20_000 }).toEqual([expect.stringMatching(/^admin:/), 'public']);

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('heading', { name: 'Log in to Clipstash' }).waitFor();
    await expect.poll(() => offlineDatabaseOwners(page), { timeout: 20_000 }).toEqual(['public']);
    expect(await offlineDatabaseKeys(page, 'pastes')).toEqual([slug]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
