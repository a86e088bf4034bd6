import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { a11yInBothThemes, adminToken, newPerson, settledWorkDone } from './harness';
import { useSuite } from './suite';

const suite = useSuite();
let token = '';

beforeAll(async () => {
  token = await adminToken(suite.server.url);
});

/** A text file shared through the API, as a script or another client would; returns its slug. */
async function shareFile(name: string, bytes: Buffer, maxViews: number, password?: string): Promise<string> {
  const form = new FormData();
  form.append('max_views', String(maxViews));
  if (password) form.append('password', password);
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'text/plain' }), name);
  const answer = await fetch(`${suite.server.url}/api/upload`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${token}` } });
  expect(answer.status).toBe(201);
  return ((await answer.json()) as { data: { slug: string } }).data.slug;
}

/** The share's view count as the admin's file list has it (a limited share's views are written at once). */
async function viewsOf(slug: string): Promise<number> {
  const answer = await fetch(`${suite.server.url}/api/admin/files?limit=200&offset=0`, { headers: { Authorization: `Bearer ${token}` } });
  const list = (await answer.json()) as { data: { items: { slug: string; views: number }[] } };
  const share = list.data.items.find((item) => item.slug === slug);
  if (!share) throw new Error(`no share ${slug} in the admin's list`);
  return share.views;
}

/** Every request the page makes that could spend a view: anything but a HEAD to a share's API routes. */
function recordSpendingRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (request.method() !== 'HEAD' && /^\/api\/(public\/files|file-view|file-download)\//.test(path)) seen.push(`${request.method()} ${path}`);
  });
  return seen;
}

describe('a file share with a view limit', () => {
  it('shows what it is without spending the view; Download spends it; then it is gone', async () => {
    const bytes = Buffer.from('for your eyes only\nsecond line\n');
    const slug = await shareFile('once.txt', bytes, 1);

    // A link preview: a browser that loads the page and runs its script, and clicks nothing.
    const scanner = await newPerson(suite.browser);
    const spent = recordSpendingRequests(scanner.page);
    await scanner.page.goto(`${suite.server.url}/file/${slug}`);
    await scanner.page.getByRole('heading', { name: 'once.txt', level: 1 }).waitFor();
    await scanner.page.getByText('1 view left').waitFor();
    await scanner.page.getByText('This is the last view').waitFor();
    await scanner.page.getByText(`${bytes.length} B`).waitFor();
    await scanner.page.getByText('text/plain').waitFor();
    // What the page defers until it has settled has run too, spending nothing.
    await settledWorkDone(scanner.page);
    expect(spent).toEqual([]);
    expect(await viewsOf(slug)).toBe(0);
    expect(await a11yInBothThemes(scanner.page)).toEqual([]);
    expect(scanner.errors).toEqual([]);
    await scanner.context.close();

    const visitor = await newPerson(suite.browser);
    await visitor.page.goto(`${suite.server.url}/file/${slug}`);
    await visitor.page.getByText('1 view left').waitFor();
    const [download] = await Promise.all([visitor.page.waitForEvent('download'), visitor.page.getByRole('button', { name: 'Download', exact: true }).click()]);
    expect(download.suggestedFilename()).toBe('once.txt');
    expect(readFileSync((await download.path()) ?? '').equals(bytes)).toBe(true);
    // The page then shows the file itself, and says that the link is now used up.
    await visitor.page.getByText('second line').waitFor();
    await visitor.page.getByText('That was the last view').waitFor();
    expect(await viewsOf(slug)).toBe(1);
    expect(visitor.errors).toEqual([]);
    await visitor.context.close();

    const late = await newPerson(suite.browser);
    await late.page.goto(`${suite.server.url}/file/${slug}`);
    await late.page.getByRole('heading', { name: 'This share has expired or been used up' }).waitFor();
    expect(await viewsOf(slug)).toBe(1);
    await late.context.close();
  });

  it('with a limit of 3, each press of Show or Download spends one view', async () => {
    const bytes = Buffer.from('three views\n');
    const slug = await shareFile('thrice.txt', bytes, 3);

    const first = await newPerson(suite.browser);
    await first.page.goto(`${suite.server.url}/file/${slug}`);
    await first.page.getByText('3 views left').waitFor();
    expect(await first.page.getByText('This is the last view').count()).toBe(0);
    await first.page.getByText('Opening it spends one of its views.').waitFor();
    expect(await viewsOf(slug)).toBe(0);
    await first.page.getByRole('button', { name: 'Show', exact: true }).click();
    await first.page.getByText('three views').waitFor();
    expect(await viewsOf(slug)).toBe(1);
    await first.context.close();

    const second = await newPerson(suite.browser);
    await second.page.goto(`${suite.server.url}/file/${slug}`);
    await second.page.getByText('2 views left').waitFor();
    const [download] = await Promise.all([second.page.waitForEvent('download'), second.page.getByRole('button', { name: 'Download', exact: true }).click()]);
    expect(readFileSync((await download.path()) ?? '').equals(bytes)).toBe(true);
    expect(await viewsOf(slug)).toBe(2);
    await second.context.close();
  });

  it('behind a password, says what is left on the password form, which is the step that spends the view', async () => {
    const slug = await shareFile('guarded.txt', Buffer.from('guarded words\n'), 1, 'letmein');
    const visitor = await newPerson(suite.browser);
    const spent = recordSpendingRequests(visitor.page);
    await visitor.page.goto(`${suite.server.url}/file/${slug}`);
    await visitor.page.getByRole('heading', { name: 'This file is protected' }).waitFor();
    await visitor.page.getByText('1 view left').waitFor();
    await visitor.page.getByText('This is the last view').waitFor();
    // The info read behind a password hands out no link and counts nothing.
    expect(spent).toEqual([`GET /api/public/files/${slug}`]);
    expect(await viewsOf(slug)).toBe(0);
    await visitor.page.getByLabel('Password').fill('letmein');
    await visitor.page.getByRole('button', { name: 'Open' }).click();
    await visitor.page.getByText('guarded words').waitFor();
    expect(await viewsOf(slug)).toBe(1);
    await visitor.context.close();
  });
});

describe('a file share without a view limit', () => {
  it('opens its preview at once, as before', async () => {
    const slug = await shareFile('open.txt', Buffer.from('open to all\n'), 0);
    const visitor = await newPerson(suite.browser);
    await visitor.page.goto(`${suite.server.url}/file/${slug}`);
    await visitor.page.getByText('open to all').waitFor();
    expect(await visitor.page.getByRole('button', { name: 'Show', exact: true }).count()).toBe(0);
    expect(visitor.errors).toEqual([]);
    await visitor.context.close();
  });
});
