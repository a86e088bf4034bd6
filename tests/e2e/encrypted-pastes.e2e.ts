import { execFile } from 'node:child_process';
import { createCipheriv, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { a11yInBothThemes, adminToken, loginAsAdmin, newPerson, settledWorkDone } from './harness';
import { useSuite } from './suite';

const suite = useSuite();
let token = '';

beforeAll(async () => {
  token = await adminToken(suite.server.url);
});

/** A paste created through the API as the admin; answers its slug. */
async function adminPaste(body: Record<string, unknown>): Promise<string> {
  const created = await fetch(`${suite.server.url}/api/paste`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  expect(created.status).toBe(201);
  return ((await created.json()) as { data: { slug: string } }).data.slug;
}

/** The payload of `text` under `key`, as any client makes it: base64url(IV ‖ ciphertext ‖ tag). */
function seal(text: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  return Buffer.concat([iv, cipher.update(text, 'utf8'), cipher.final(), cipher.getAuthTag()]).toString('base64url');
}

/** An encrypted paste made without a browser; answers its slug, its key as the link has it and its payload. */
async function encryptedPaste(text: string, settings: Record<string, unknown> = {}) {
  const key = randomBytes(32);
  const payload = seal(text, key);
  const slug = await adminPaste({ content: payload, encryption: 'aes-256-gcm', ...settings });
  return { slug, keyText: key.toString('base64url'), payload };
}

/** Every request of the page that may spend a view: anything but a HEAD to a paste's API routes. */
function recordSpendingRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (request.method() !== 'HEAD' && /^\/api\/(paste|raw)\//.test(path)) seen.push(`${request.method()} ${path}`);
  });
  return seen;
}

/** Loads the page as a link preview would: runs its script, waits until it has settled, clicks nothing. */
async function previewOnly(url: string) {
  const { page, context } = await newPerson(suite.browser);
  const spent = recordSpendingRequests(page);
  await page.goto(url);
  await page.getByText('1 view left').waitFor();
  await settledWorkDone(page);
  await context.close();
  return spent;
}

const cipherLoads = (page: Page) =>
  page.evaluate(() => performance.getEntriesByType('resource').filter((entry) => /\/assets\/paste-cipher-[\w-]+\.js$/.test(entry.name)).length);

describe('an encrypted paste', () => {
  it('is made in the editor, read from its whole link in a fresh browser, and edited by its owner with the same key', async () => {
    const admin = await newPerson(suite.browser);
    await loginAsAdmin(admin.page, suite.server.url);
    await admin.page.getByRole('link', { name: 'Home' }).click();
    await admin.page.locator('.cm-content').click();
    await admin.page.keyboard.insertText('# Launch codes\n\n- [x] only the link knows\n');
    const encrypt = admin.page.getByRole('checkbox', { name: 'Encrypt in the browser' });
    expect(await encrypt.isChecked()).toBe(false);
    await encrypt.check();
    await admin.page.getByLabel('Remark').fill('Secret notes');
    await admin.page.getByRole('button', { name: 'Create share' }).click();
    const shareLink = admin.page.getByRole('textbox', { name: 'Share link' });
    await shareLink.waitFor();
    const url = await shareLink.inputValue();
    const [, slug = '', keyText = ''] = new RegExp(`^${suite.server.url}/paste/([\\w-]+)#key=([\\w-]{43})$`).exec(url) ?? [];
    expect(slug, url).not.toBe('');
    await admin.page.getByText(/End-to-end encrypted: the key is the part of the link after #/).waitFor();
    // Its raw text is ciphertext: no raw link to copy.
    expect(await admin.page.getByRole('button', { name: 'Copy raw link' }).count()).toBe(0);
    // The option stays on in this browser.
    expect(await encrypt.isChecked()).toBe(true);
    await admin.page.reload();
    expect(await admin.page.getByRole('checkbox', { name: 'Encrypt in the browser' }).isChecked()).toBe(true);

    // The server holds a payload it cannot read, and renders none of it.
    const raw = await (await fetch(`${suite.server.url}/api/raw/${slug}`)).text();
    expect(raw).toMatch(/^[\w-]+$/);
    expect(raw).not.toContain('Launch');

    const visitor = await newPerson(suite.browser);
    const sent: string[] = [];
    visitor.page.on('request', (request) => sent.push(request.url()));
    await visitor.page.goto(url);
    const content = visitor.page.getByRole('region', { name: 'Shared content' });
    await content.getByRole('heading', { name: 'Launch codes' }).waitFor();
    expect(await content.getByRole('checkbox', { name: 'only the link knows', checked: true }).count()).toBe(1);
    await visitor.page.getByRole('heading', { name: 'Secret notes' }).waitFor();
    await visitor.page.getByText('End-to-end encrypted').waitFor();
    // The raw text would be the ciphertext: no raw link is offered.
    expect(await visitor.page.getByRole('link', { name: 'Raw' }).count()).toBe(0);
    await visitor.page.getByRole('button', { name: 'Copy link' }).waitFor();
    // The key never left the browser.
    expect(sent.filter((request) => request.includes(keyText))).toEqual([]);
    expect(await cipherLoads(visitor.page)).toBe(1);
    await visitor.context.close();

    // The owner edits the text from the link: it is encrypted again with the link's key.
    await admin.page.goto(url);
    await admin.page.getByRole('region', { name: 'Shared content' }).getByRole('heading', { name: 'Launch codes' }).waitFor();
    await admin.page.getByRole('button', { name: 'Edit' }).click();
    const dialog = admin.page.getByRole('dialog', { name: 'Edit share' });
    const text = dialog.getByLabel('Content');
    await expect.poll(() => text.inputValue()).toContain('# Launch codes');
    await text.fill('# Launch codes, revised\n\nStill secret.');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await admin.page.getByRole('region', { name: 'Shared content' }).getByRole('heading', { name: 'Launch codes, revised' }).waitFor();
    expect(await (await fetch(`${suite.server.url}/api/raw/${slug}`)).text()).not.toContain('revised');
    const reader = await newPerson(suite.browser);
    await reader.page.goto(url);
    await reader.page.getByRole('region', { name: 'Shared content' }).getByText('Still secret.').waitFor();
    await reader.context.close();

    // The admin's list has no preview of it, and its edit dialog (no key there) changes only the settings.
    await admin.page.goto(`${suite.server.url}/admin/text-management`);
    const row = admin.page.locator(`tr[data-slug="${slug}"]`);
    await row.getByText('End-to-end encrypted').waitFor();
    await row.getByRole('button', { name: `Edit ${slug}` }).click();
    const listDialog = admin.page.getByRole('dialog', { name: 'Edit share' });
    await listDialog.getByText(/open the paste from its whole link to edit the text/).waitFor();
    expect(await listDialog.getByLabel('Content').count()).toBe(0);
    await admin.context.close();
  });

  it('says the link is incomplete, or its key wrong, and shows none of the payload', async () => {
    const { slug, keyText, payload } = await encryptedPaste('# Hidden\n\nNot for you.');
    const otherKey = randomBytes(32).toString('base64url');
    const cases = [
      { hash: '', title: 'This link is incomplete' },
      { hash: `#key=${keyText.slice(0, 20)}`, title: 'This link is incomplete' },
      { hash: `#key=${otherKey}`, title: 'The key in this link is wrong' },
    ];
    for (const { hash, title } of cases) {
      const { page, context } = await newPerson(suite.browser);
      const spent = recordSpendingRequests(page);
      await page.goto(`${suite.server.url}/paste/${slug}${hash}`);
      await page.getByRole('heading', { name: title }).waitFor();
      const shown = await page.evaluate(() => document.body.innerText);
      expect(shown).not.toContain(payload.slice(0, 16));
      expect(shown).not.toContain('Not for you');
      // Without a usable key, the payload is not even fetched.
      expect(spent, hash).toEqual(hash.includes(otherKey) ? [`GET /api/paste/${slug}`] : []);
      await context.close();
    }
  });

  it('with a view limit of 1: a link preview spends nothing, Show spends the view, and then it is gone', async () => {
    const { slug, keyText } = await encryptedPaste('# Burn after reading\n\nOnce only.', { maxViews: 1 });
    const url = `${suite.server.url}/paste/${slug}#key=${keyText}`;
    expect(await previewOnly(url)).toEqual([]);

    const { page, context } = await newPerson(suite.browser);
    await page.goto(url);
    await page.getByText('1 view left').waitFor();
    await page.getByText('End-to-end encrypted').waitFor();
    await page.getByText('This is the last view: after this the paste is gone.').waitFor();
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('region', { name: 'Shared content' }).getByRole('heading', { name: 'Burn after reading' }).waitFor();
    await page.getByText('1 of 1 views').waitFor();
    await page.getByRole('status').getByText(/^That was the last view: this link will not open again\./).waitFor();
    // A used-up link is not offered for copying, nor its raw text; the content still is.
    expect(await page.getByRole('button', { name: 'Copy link' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Raw' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Copy content' }).waitFor();
    await context.close();

    const late = await newPerson(suite.browser);
    await late.page.goto(url);
    await late.page.getByRole('heading', { name: 'This share has expired or been used up' }).waitFor();
    await late.context.close();
  });

  it('with a password: the password form is the step that spends the view, and the key opens the text', async () => {
    const { slug, keyText } = await encryptedPaste('# Doubly kept\n\nPassword and key.', { password: 'open sesame', maxViews: 2 });
    const url = `${suite.server.url}/paste/${slug}#key=${keyText}`;
    const { page, context } = await newPerson(suite.browser);
    const spent = recordSpendingRequests(page);
    await page.goto(url);
    await page.getByRole('heading', { name: 'This share is protected' }).waitFor();
    await page.getByText('2 views left').waitFor();
    await page.getByText('End-to-end encrypted').waitFor();
    expect(spent).toEqual([]);
    await page.getByLabel('Password').fill('wrong');
    await page.getByRole('button', { name: 'Open' }).click();
    await page.getByText('Wrong password').waitFor();
    await page.getByLabel('Password').fill('open sesame');
    await page.getByRole('button', { name: 'Open' }).click();
    await page.getByRole('region', { name: 'Shared content' }).getByText('Password and key.').waitFor();
    expect(await page.getByRole('link', { name: 'Raw' }).count()).toBe(0);
    await page.getByText('1 of 2 views').waitFor();
    await context.close();
  });

  it('is made by the README recipe with Node, and its printed link opens and decrypts in the browser', async () => {
    const readme = readFileSync('README.md', 'utf8');
    const section = readme.split(/^## Use it from scripts$/m)[1]?.split(/^## /m)[0] ?? '';
    const block = (title: string) => [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '').find((text) => text.startsWith(`# ${title}\n`));
    const setup = block('Setup: your server and your key, and a helper for JSON calls');
    const recipe = block('Encrypted paste: standard input in, link with its key out');
    expect(setup && recipe, 'the README recipes').toBeTruthy();
    const created = await fetch(`${suite.server.url}/api/admin/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: 'encrypted-recipe', text_permission: true }),
    });
    expect(created.status).toBe(201);
    const { key } = ((await created.json()) as { data: { key: string } }).data;
    const script = `${setup}\n${recipe}`.replaceAll('https://clip.example.com', suite.server.url).replaceAll('your-api-key', key);
    const { stdout } = await promisify(execFile)('bash', ['-c', `set -euo pipefail\n${script}`]);
    const link = stdout.trim();
    expect(link).toMatch(new RegExp(`^${suite.server.url}/paste/[\\w-]+#key=[\\w-]{43}$`));

    const { page, context } = await newPerson(suite.browser);
    await page.goto(link);
    await page.getByRole('region', { name: 'Shared content' }).getByText('A secret from a script').waitFor();
    await context.close();
  });
});

describe('a plain paste with a view limit', () => {
  it('shows what it is without spending the view; Show spends it; then it is gone', async () => {
    const slug = await adminPaste({ content: '# Read once\n\nPlain but brief.', maxViews: 1 });
    const url = `${suite.server.url}/paste/${slug}`;
    expect(await previewOnly(url)).toEqual([]);

    const { page, context } = await newPerson(suite.browser);
    await page.goto(url);
    await page.getByText('1 view left').waitFor();
    await page.getByText('This is the last view: after this the paste is gone.').waitFor();
    const facts = page.getByRole('list', { name: 'About this share' });
    expect(await facts.textContent()).toContain('Markdown text');
    expect(await facts.textContent()).not.toContain('encrypted');
    expect(await a11yInBothThemes(page)).toEqual([]);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('region', { name: 'Shared content' }).getByRole('heading', { name: 'Read once' }).waitFor();
    // A plain paste loads no cipher.
    expect(await cipherLoads(page)).toBe(0);
    await context.close();

    const late = await newPerson(suite.browser);
    await late.page.goto(url);
    await late.page.getByRole('heading', { name: 'This share has expired or been used up' }).waitFor();
    await late.context.close();
  });

  it('without a view limit opens at once, as before, and the gate and its notices pass axe in both themes', async () => {
    const slug = await adminPaste({ content: '# Open at once\n\nNo limit.' });
    const { page, context } = await newPerson(suite.browser);
    await page.goto(`${suite.server.url}/paste/${slug}`);
    await page.getByRole('region', { name: 'Shared content' }).getByRole('heading', { name: 'Open at once' }).waitFor();
    expect(await page.getByRole('button', { name: 'Show' }).count()).toBe(0);
    await context.close();

    const { slug: limited, keyText } = await encryptedPaste('# Gated', { maxViews: 3 });
    const gate = await newPerson(suite.browser);
    await gate.page.goto(`${suite.server.url}/paste/${limited}#key=${keyText}`);
    await gate.page.getByText('3 views left').waitFor();
    await gate.page.getByText('Opening it spends one of its views.').waitFor();
    expect(await a11yInBothThemes(gate.page)).toEqual([]);
    await gate.context.close();

    const incomplete = await newPerson(suite.browser);
    await incomplete.page.goto(`${suite.server.url}/paste/${limited}`);
    await incomplete.page.getByRole('heading', { name: 'This link is incomplete' }).waitFor();
    expect(await a11yInBothThemes(incomplete.page)).toEqual([]);
    await incomplete.context.close();
  });
});
