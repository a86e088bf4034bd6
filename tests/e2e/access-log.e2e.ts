import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { a11yInBothThemes, adminToken, loginAsAdmin, newPerson } from './harness';
import { useSuite } from './suite';

const suite = useSuite();
let token = '';

beforeAll(async () => {
  token = await adminToken(suite.server.url);
});

/** A file shared through the API by the admin, of a type with no preview (so only a download reads it); its slug. */
async function shareFile(name: string, bytes: Buffer): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }), name);
  const answer = await fetch(`${suite.server.url}/api/upload`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${token}` } });
  expect(answer.status).toBe(201);
  return ((await answer.json()) as { data: { slug: string } }).data.slug;
}

/** Accesses the share's log holds so far (the server writes them about once a second; a read of the log waits for them). */
async function loggedAccesses(slug: string): Promise<number> {
  const answer = await fetch(`${suite.server.url}/api/admin/files/${slug}/access-log`, { headers: { Authorization: `Bearer ${token}` } });
  return ((await answer.json()) as { data: { pagination: { total: number } } }).data.pagination.total;
}

describe('a share\'s access log', () => {
  it('shows the owner a visitor\'s download, by day and last opened, and downloads as CSV', async () => {
    const bytes = Buffer.alloc(200_000, 7);
    const slug = await shareFile('report.bin', bytes);

    // A visitor, in a browser of their own, downloads the file.
    const visitor = await newPerson(suite.browser, { userAgent: 'E2E-Visitor/1.0' });
    await visitor.page.goto(`${suite.server.url}/file/${slug}`);
    const [download] = await Promise.all([visitor.page.waitForEvent('download'), visitor.page.getByRole('link', { name: 'Download' }).click()]);
    expect(readFileSync((await download.path()) ?? '').equals(bytes)).toBe(true);
    expect(visitor.errors).toEqual([]);
    await visitor.context.close();
    // The page's peek on landing, and the download, whose row is written once its stream has closed on the server.
    await expect.poll(() => loggedAccesses(slug), { timeout: 10_000 }).toBe(2);

    // The admin opens the share's page: its access log is there.
    const admin = await newPerson(suite.browser);
    await loginAsAdmin(admin.page, suite.server.url);
    await admin.page.goto(`${suite.server.url}/file/${slug}`);
    const log = admin.page.getByRole('region', { name: 'Access log' });
    await log.getByRole('heading', { name: 'Access log' }).waitFor();
    await log.getByText(/^Last opened /).waitFor();
    const today = new Date().toISOString().slice(0, 10);
    const day = log.getByRole('table', { name: 'Accesses by day (UTC)' }).getByRole('row', { name: new RegExp(today) });
    expect(await day.getByRole('cell').allTextContents()).toEqual([today, '1', '1', '']);
    const rows = log.getByRole('table', { name: 'Accesses, newest first' }).getByRole('row');
    await rows.nth(2).getByText('Peek', { exact: true }).waitFor();
    const access = rows.nth(1);
    await access.getByText('View', { exact: true }).waitFor();
    await access.getByText('127.0.0.0/24').waitFor();
    await access.getByText(/^195\sKB$/).waitFor();
    await access.getByText('E2E-Visitor/1.0').waitFor();
    expect(await access.getByText('Cut off').count()).toBe(0);
    expect(await a11yInBothThemes(admin.page)).toEqual([]);

    const [csv] = await Promise.all([admin.page.waitForEvent('download'), log.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(csv.suggestedFilename()).toBe(`access-log-${slug}.csv`);
    const text = readFileSync((await csv.path()) ?? '', 'utf8');
    expect(text.startsWith('\uFEFFtime,ip,user_agent,kind,bytes,completed,count\r\n')).toBe(true);
    const lines = text.trimEnd().split('\r\n').slice(1);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^${today}T[^,]+,127\\.0\\.0\\.0/24,E2E-Visitor/1\\.0,view,${bytes.length},true,1$`));
    expect(lines[1]).toMatch(new RegExp(`^${today}T[^,]+,127\\.0\\.0\\.0/24,E2E-Visitor/1\\.0,peek,0,true,1$`));
    expect(admin.errors).toEqual([]);
    await admin.context.close();
  });
});
