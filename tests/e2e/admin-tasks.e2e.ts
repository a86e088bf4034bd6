/**
 * The admin's live task manager against the real built server: a visitor's file-request upload and a WebDAV PUT,
 * both fed slowly from the test so that they are still running while the page is looked at, show with who, kind
 * and progress, then end completed; in both languages, both themes, at 1280 and 360 px, with axe.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { a11yInBothThemes, adminToken, ADMIN_PASSWORD, ADMIN_USERNAME, newPerson, screenshot } from './harness';
import { useSuite } from './suite';

const suite = useSuite();
const MIB = 1024 * 1024;

/** A request body the test feeds by hand; the upload stays open until the test closes it. */
function slowBody() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return { body, push: (bytes: number) => controller.enqueue(new Uint8Array(bytes).fill(7)), close: () => controller.close() };
}

const slowPut = (url: string, length: number, headers: Record<string, string> = {}) => {
  const { body, push, close } = slowBody();
  const answered = fetch(url, { method: 'PUT', headers: { 'content-length': String(length), ...headers }, body, duplex: 'half' } as RequestInit);
  return { push, close, answered };
};

async function api<T>(token: string | undefined, path: string, json: unknown, authorization = token && `Bearer ${token}`): Promise<T> {
  const res = await fetch(`${suite.server.url}/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization && { authorization }) },
    body: JSON.stringify(json),
  });
  const body = (await res.json()) as { data: T };
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(body)}`);
  return body.data;
}

const TEXT = {
  'en-US': { fileRequest: 'File request upload', dav: 'WebDAV upload', running: 'Running', completed: 'Completed', noJobs: 'No server jobs in the last 24 hours.', live: 'Live', visitor: 'File request “Scans for Ada”' },
  'zh-CN': { fileRequest: '文件收集上传', dav: 'WebDAV 上传', running: '运行中', completed: '已完成', noJobs: '最近 24 小时没有服务器任务。', live: '实时', visitor: '文件收集“Scans for Ada”' },
} as const;

async function openTasks(page: Page) {
  await page.goto(`${suite.server.url}/admin`);
  await page.locator('input[autocomplete="username"]').fill(ADMIN_USERNAME);
  await page.locator('input[type="password"]').fill(ADMIN_PASSWORD);
  await page.locator('main form button[type="submit"]').click();
  await page.getByRole('navigation').locator('a[href="/admin/tasks"]').click();
}

const rowOf = (page: Page, name: string) => page.getByRole('listitem').filter({ hasText: name });

describe('the admin\'s live task manager', () => {
  it('shows a file-request upload and a WebDAV PUT while they run, then their outcome', async () => {
    const token = await adminToken(suite.server.url);
    // A visitor's upload through a file request: init, one part signed and sent slowly to its LOCAL URL.
    const request = await api<{ id: string; slug: string }>(token, '/file-requests', { title: 'Scans for Ada', target: { kind: 'folder', path: '/local/inbox/' } });
    const { grant } = await api<{ grant: string }>(undefined, `/public/file-requests/${request.slug}/grant`, {});
    const asSender = `FileRequest ${grant}`;
    const upload = await api<{ file_id: string; upload_id: string }>(undefined, `/public/file-requests/${request.slug}/multipart/init`, { filename: 'scan.pdf', size: 5 * MIB, part_size: 5 * MIB }, asSender);
    const ref = { file_id: upload.file_id, upload_id: upload.upload_id };
    const signed = await api<{ urls: { url: string }[] }>(undefined, `/public/file-requests/${request.slug}/multipart/sign`, { ...ref, partNumbers: [1] }, asSender);
    const part = slowPut(signed.urls[0]?.url ?? '', 5 * MIB);
    part.push(MIB);
    // A WebDAV client's PUT, its body still coming.
    const auth = `Basic ${Buffer.from(`${ADMIN_USERNAME}:${ADMIN_PASSWORD}`).toString('base64')}`;
    const dav = slowPut(`${suite.server.url}/dav/local/backup.tar`, 4 * MIB, { authorization: auth });
    dav.push(MIB);

    const report: string[] = [];
    for (const [locale, width] of [['en-US', 1280], ['zh-CN', 360]] as const) {
      const text = TEXT[locale];
      const { page, context, errors } = await newPerson(suite.browser, { locale, viewport: { width, height: width > 400 ? 900 : 740 } });
      await openTasks(page);
      await page.getByText(text.noJobs).waitFor();
      const received = rowOf(page, 'scan.pdf');
      await received.getByText(text.running, { exact: true }).waitFor();
      await expect.poll(() => received.textContent()).toContain(text.fileRequest);
      expect(await received.textContent()).toContain(text.visitor);
      expect(await received.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('20');
      const put = rowOf(page, '/local/backup.tar');
      await put.getByText(text.running, { exact: true }).waitFor();
      expect(await put.textContent()).toContain(text.dav);
      expect(await put.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('25');
      await page.getByText(text.live, { exact: true }).first().waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      report.push(...(await a11yInBothThemes(page, `${locale} ${width}px`)));
      await screenshot(page, 'admin-tasks', `running-${locale}-${width}`);
      expect(errors).toEqual([]);
      if (locale === 'zh-CN') {
        // The page stays open while both end: their rows change live, without a reload.
        part.push(4 * MIB);
        part.close();
        const sent = await part.answered;
        expect(sent.status).toBe(200);
        const etag = (sent.headers.get('etag') ?? '').replace(/"/g, '');
        await api(undefined, `/public/file-requests/${request.slug}/multipart/complete`, { ...ref, parts: [{ partNumber: 1, etag }] }, asSender);
        dav.push(3 * MIB);
        dav.close();
        expect((await dav.answered).status).toBe(201);
        await received.getByText(text.completed, { exact: true }).waitFor();
        await put.getByText(text.completed, { exact: true }).waitFor();
        report.push(...(await a11yInBothThemes(page, `${locale} ${width}px, ended`)));
      }
      await context.close();
    }
    expect(report.join('\n')).toBe('');
  }, 120_000);
});
