import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { a11yInBothThemes, ADMIN_PASSWORD, ADMIN_USERNAME, adminToken, newPerson } from './harness';
import { useSuite } from './suite';

const suite = useSuite();

interface Shared {
  title?: string;
  text?: string;
  url?: string;
  file?: { name: string; mimeType: string; buffer: Buffer };
}

/** The manifest's share target, as read from the built manifest. */
async function shareTarget(): Promise<{ action: string; method: string; enctype: string; params: Record<string, unknown> }> {
  const manifest = (await (await fetch(`${suite.server.url}/manifest.webmanifest`)).json()) as { share_target: never };
  return manifest.share_target;
}

/** Waits until the service worker is installed and controls the page. */
async function controlledByServiceWorker(page: Page) {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20_000 });
}

/**
 * What the system's share sheet does: a multipart POST to the manifest's action, as a navigation of the app's
 * window (a form submitted in the page).
 */
async function shareToApp(page: Page, shared: Shared) {
  const { action, method, enctype } = await shareTarget();
  await page.evaluate(
    ({ action, method, enctype, fields }) => {
      const form = document.createElement('form');
      Object.assign(form, { action, method, enctype, id: 'share-sheet' });
      for (const [name, value] of Object.entries(fields)) {
        const input = Object.assign(document.createElement('input'), { name, value });
        form.append(input);
      }
      form.append(Object.assign(document.createElement('input'), { type: 'file', name: 'files', id: 'share-sheet-files', multiple: true }));
      document.body.append(form);
    },
    { action, method, enctype, fields: { title: shared.title ?? '', text: shared.text ?? '', url: shared.url ?? '' } },
  );
  if (shared.file) await page.locator('#share-sheet-files').setInputFiles(shared.file);
  // The service worker's answer (303) sends the window on to the page that takes the share.
  const sentOn = page.waitForRequest((request) => request.isNavigationRequest() && /[?&]shared=/.test(request.url()));
  await page.evaluate(() => (document.getElementById('share-sheet') as HTMLFormElement).submit());
  await sentOn;
}

/** The editor's text, a line per `.cm-line` (innerText would count an empty line's <br> twice). */
const editorText = async (page: Page) => (await page.locator('.cm-line').allTextContents()).join('\n');

async function signInAsAdmin(page: Page) {
  await page.evaluate((token) => localStorage.setItem('admin_token', token), await adminToken(suite.server.url));
  await page.reload();
}

describe('the share target', () => {
  it('is declared in the manifest, and answered by the server with a redirect while no service worker takes it', async () => {
    expect(await shareTarget()).toEqual({
      action: '/share-target',
      method: 'POST',
      enctype: 'multipart/form-data',
      params: { title: 'title', text: 'text', url: 'url', files: [{ name: 'files', accept: ['*/*'] }] },
    });
    const body = new FormData();
    body.set('text', 'lost on the way');
    const answer = await fetch(`${suite.server.url}/share-target`, { method: 'POST', body, redirect: 'manual' });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/?share-target=unavailable');

    const { page, context } = await newPerson(suite.browser);
    await page.goto(`${suite.server.url}/?share-target=unavailable`);
    await page.getByText('What you shared did not reach Clipstash').waitFor();
    // The address is cleared: a reload does not say it again.
    await page.waitForURL(`${suite.server.url}/`);
    await context.close();
  });

  it('opens shared text and links in the editor, and queues shared files on the upload page without sending them', async () => {
    const { page, context, errors } = await newPerson(suite.browser);
    await page.goto(`${suite.server.url}/`);
    await signInAsAdmin(page);
    await controlledByServiceWorker(page);

    await shareToApp(page, { title: 'A page', text: 'Worth reading', url: 'https://example.com/article' });
    await expect.poll(() => editorText(page), { timeout: 10_000 }).toBe('A page\n\nWorth reading\n\nhttps://example.com/article');
    await page.getByRole('button', { name: 'Create share' }).waitFor();

    await shareToApp(page, { text: 'A caption', file: { name: 'holiday.txt', mimeType: 'text/plain', buffer: Buffer.from('sun and sea') } });
    await page.waitForURL(`${suite.server.url}/upload`);
    await page.getByText('One shared file is ready: check the settings below, then upload it.').waitFor();
    const chosen = page.getByRole('list', { name: 'Chosen files' });
    await chosen.getByText('holiday.txt').waitFor();
    // Queued, not sent: the settings are there to check first.
    await page.getByLabel('Expires after').waitFor();
    expect(await page.getByRole('list', { name: 'Uploads' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Upload', exact: true }).isEnabled()).toBe(true);
    expect(await a11yInBothThemes(page, 'upload page with a shared file')).toEqual([]);

    // Sent when the person says so; the note has done its work.
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('list', { name: 'Uploads' }).getByText('holiday.txt').waitFor();
    expect(await page.getByText('One shared file is ready').count()).toBe(0);

    // The text that came with the file, in the editor.
    await page.getByRole('link', { name: 'Open the shared text in the editor' }).click();
    await expect.poll(() => editorText(page), { timeout: 10_000 }).toBe('A caption');

    // Taken once: the same address later opens nothing again.
    await page.goto(`${suite.server.url}/upload`);
    await page.getByTestId('drop-zone').waitFor();
    expect(await page.getByRole('list', { name: 'Chosen files' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('signed out: the shared text and files are still there after logging in', async () => {
    const { page, context } = await newPerson(suite.browser);
    await page.goto(`${suite.server.url}/`);
    await controlledByServiceWorker(page);

    await shareToApp(page, { text: 'Shared before signing in' });
    await expect.poll(() => editorText(page), { timeout: 10_000 }).toBe('Shared before signing in');
    await page.getByRole('main').getByRole('link', { name: 'Log in' }).click();
    await page.getByLabel('Username').fill(ADMIN_USERNAME);
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${suite.server.url}/`);
    await page.getByRole('button', { name: 'Create share' }).waitFor();
    await expect.poll(() => editorText(page), { timeout: 10_000 }).toBe('Shared before signing in');

    // Signed out again (the login is forgotten): a shared file waits through the login as well.
    await page.evaluate(() => localStorage.removeItem('admin_token'));
    await page.reload();
    await page.getByRole('main').getByRole('link', { name: 'Log in' }).waitFor();
    await shareToApp(page, { file: { name: 'report.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') } });
    await page.getByRole('heading', { name: 'Log in to upload' }).waitFor();
    await page.getByRole('main').getByRole('link', { name: 'Log in' }).click();
    await page.getByLabel('Username').fill(ADMIN_USERNAME);
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${suite.server.url}/upload`);
    await page.getByRole('list', { name: 'Chosen files' }).getByText('report.pdf').waitFor();
    await context.close();
  });
});
