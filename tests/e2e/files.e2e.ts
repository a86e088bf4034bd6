import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loginAsAdmin, newPerson, seriousA11yViolations } from './harness';
import { useSuite } from './suite';

const suite = useSuite({}, { s3: true });

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A 2x2 red PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFElEQVR4nGP8z8DAwMDAxMDAwMAAAB0ABQHGuA4cAAAAAElFTkSuQmCC',
  'base64',
);

/** A one-page PDF saying "Hello". */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 100]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj\n' +
    '4 0 obj<</Length 37>>stream\nBT /F1 24 Tf 20 40 Td (Hello) Tj ET\nendstream endobj\n' +
    '5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/** A real one-second WebM made by the browser itself (MediaRecorder over a canvas). */
async function recordWebm(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 64;
    canvas.height = 48;
    const context = canvas.getContext('2d')!;
    const stream = canvas.captureStream(15);
    const recorder = new MediaRecorder(stream, { mimeType: 'video/webm' });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (event) => chunks.push(event.data);
    const stopped = new Promise((resolve) => (recorder.onstop = resolve));
    recorder.start();
    for (let frame = 0; frame < 15; frame++) {
      context.fillStyle = `hsl(${frame * 24}, 80%, 50%)`;
      context.fillRect(0, 0, 64, 48);
      await new Promise((resolve) => setTimeout(resolve, 66));
    }
    recorder.stop();
    await stopped;
    const bytes = new Uint8Array(await new Blob(chunks, { type: 'video/webm' }).arrayBuffer());
    let binary = '';
    for (const byte of bytes) binary += String.fromCharCode(byte);
    return btoa(binary);
  });
  return Buffer.from(base64, 'base64');
}

interface UploadFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** Drops files on the drop zone the way a person drags them in from the desktop. */
async function dropFiles(page: Page, files: UploadFile[]) {
  const dataTransfer = await page.evaluateHandle(
    (items) => {
      const transfer = new DataTransfer();
      for (const item of items) {
        const bytes = Uint8Array.from(atob(item.base64), (char) => char.charCodeAt(0));
        transfer.items.add(new File([bytes], item.name, { type: item.mimeType }));
      }
      return transfer;
    },
    files.map((file) => ({ name: file.name, mimeType: file.mimeType, base64: file.buffer.toString('base64') })),
  );
  await page.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer });
}

async function adminToken(page: Page) {
  return page.evaluate(() => localStorage.getItem('admin_token'));
}

/** Every file under a folder, internal dot-folders (staging, metadata) included: storage must hold no leftovers. */
function objectsUnder(folder: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(folder);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? objectsUnder(path) : [path];
  });
}

/** The slugs of a finished share batch's files, by file name. */
async function shareSlugs(page: Page, label: string): Promise<Map<string, string>> {
  const slugs = new Map<string, string>();
  const row = page.locator(`li[data-file-name="${label}"][data-task-status="completed"]`);
  for (const line of await row.locator('[data-share-path]').all()) {
    const href = (await line.getByRole('link').getAttribute('href')) ?? '';
    slugs.set((await line.getAttribute('data-share-path')) ?? '', decodeURIComponent(href.split('/file/')[1] ?? ''));
  }
  return slugs;
}

describe.each(['LOCAL', 'S3'] as const)('file shares on %s storage', (storage) => {
  it('an admin drops files, a visitor previews and downloads them byte-identical', async () => {
    const admin = await newPerson(suite.browser);
    await loginAsAdmin(admin.page, suite.server.url);
    if (storage === 'S3') {
      const response = await admin.page.request.post(`${suite.server.url}/api/s3-configs`, {
        data: suite.s3.configRequest({ name: 's3rver', is_default: true, is_public: true }),
        headers: { Authorization: `Bearer ${await adminToken(admin.page)}` },
      });
      expect(response.status()).toBe(201);
    }
    const video = await recordWebm(admin.page);
    const text = Buffer.from(`plain text for ${storage}\nsecond line\n`);
    const files: UploadFile[] = [
      { name: `picture-${storage}.png`, mimeType: 'image/png', buffer: PNG },
      { name: `clip-${storage}.webm`, mimeType: 'video/webm', buffer: video },
      { name: `doc-${storage}.pdf`, mimeType: 'application/pdf', buffer: PDF },
      { name: `notes-${storage}.txt`, mimeType: 'text/plain', buffer: text },
    ];

    await admin.page.goto(`${suite.server.url}/upload`);
    if (storage === 'S3') await expect(admin.page.getByLabel('Storage').locator('option:checked').textContent()).resolves.toContain('s3rver');
    await dropFiles(admin.page, files);
    await expect(admin.page.getByRole('list', { name: 'Chosen files' }).getByRole('listitem').count()).resolves.toBe(4);
    await admin.page.getByRole('button', { name: 'Upload 4 files' }).click();
    // Files sent together are one task, with a link for each.
    await admin.page.locator('li[data-file-name="Share 4 files"][data-task-status="completed"]').waitFor();
    expect(await admin.page.getByRole('list', { name: 'Uploads' }).locator('li[data-task-type]').count()).toBe(1);
    const slugs = await shareSlugs(admin.page, 'Share 4 files');
    expect([...slugs.keys()]).toEqual(files.map((file) => file.name));
    await admin.page.getByRole('heading', { name: 'Recent uploads' }).waitFor();
    expect(await admin.page.locator('[data-recent-slug]').count()).toBe(3);
    await admin.page.locator('[data-recent-slug]').first().getByRole('button').click();
    await admin.page.locator('[data-recent-slug] [role="img"][data-ready="true"]').waitFor();

    const visitor = await newPerson(suite.browser);
    const open = async (name: string) => {
      await visitor.page.goto(`${suite.server.url}/file/${slugs.get(name)}`);
      await visitor.page.getByRole('heading', { name }).waitFor();
    };

    await open(files[0]!.name);
    const image = visitor.page.getByRole('img', { name: files[0]!.name });
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(2);
    expect(await seriousA11yViolations(visitor.page)).toEqual([]);

    await open(files[1]!.name);
    const player = visitor.page.locator('video');
    await expect.poll(() => player.evaluate((element: HTMLVideoElement) => element.readyState), { timeout: 15_000 }).toBeGreaterThan(0);

    await open(files[2]!.name);
    const frame = visitor.page.locator('iframe[title^="PDF preview"]');
    const pdfUrl = (await frame.getAttribute('src')) ?? '';
    const pdf = await visitor.page.request.get(pdfUrl);
    expect(pdf.headers()['content-type']).toContain('application/pdf');
    expect(sha256(await pdf.body())).toBe(sha256(PDF));

    await open(files[3]!.name);
    await visitor.page.getByText('second line').waitFor();
    const [download] = await Promise.all([visitor.page.waitForEvent('download'), visitor.page.getByRole('link', { name: 'Download' }).click()]);
    expect(download.suggestedFilename()).toBe(files[3]!.name);
    expect(sha256(readFileSync((await download.path()) ?? ''))).toBe(sha256(text));

    // A range request gets exactly those bytes.
    const ranged = await visitor.page.request.get(`${suite.server.url}/api/file-download/${slugs.get(files[3]!.name)}`, { headers: { Range: 'bytes=6-9' } });
    expect(ranged.status()).toBe(206);
    expect((await ranged.body()).toString()).toBe(text.subarray(6, 10).toString());
    await Promise.all([admin.context.close(), visitor.context.close()]);
  });

  it('a password-protected upload asks the visitor for the password', async () => {
    const admin = await newPerson(suite.browser);
    await loginAsAdmin(admin.page, suite.server.url);
    await admin.page.goto(`${suite.server.url}/upload`);
    await dropFiles(admin.page, [{ name: `secret-${storage}.txt`, mimeType: 'text/plain', buffer: Buffer.from('top secret') }]);
    await admin.page.getByLabel('Password').fill('letmein');
    // The upload page offers the expiry spans pastes have.
    const expiry = admin.page.getByLabel('Expires after');
    expect(await expiry.locator('option').allTextContents()).toEqual(['Never', '1 hour', '1 day', '7 days', '2 weeks', '30 days', '3 months', '6 months']);
    await expiry.selectOption({ label: '3 months' });
    await admin.page.getByRole('button', { name: 'Upload', exact: true }).click();
    const link = await admin.page.locator('li[data-task-status="completed"]').getByRole('textbox', { name: 'Share link' }).inputValue();
    // The next upload does not quietly get the same password.
    expect(await admin.page.getByLabel('Password').inputValue()).toBe('');
    const listed = await admin.page.request.get(`${suite.server.url}/api/admin/files?limit=50`, { headers: { Authorization: `Bearer ${await adminToken(admin.page)}` } });
    const shares = ((await listed.json()) as { data: { items: { slug: string; expiresAt: string | null }[] } }).data.items;
    const expiresAt = shares.find((share) => link.endsWith(`/file/${share.slug}`))?.expiresAt;
    expect(Math.round((Date.parse(expiresAt ?? '') - Date.now()) / 86_400_000)).toBe(90);

    const visitor = await newPerson(suite.browser);
    await visitor.page.goto(link);
    await visitor.page.getByRole('heading', { name: 'This file is protected' }).waitFor();
    await visitor.page.getByLabel('Password').fill('nope');
    await visitor.page.getByRole('button', { name: 'Open' }).click();
    await visitor.page.getByText('Wrong password').waitFor();
    await visitor.page.getByLabel('Password').fill('letmein');
    await visitor.page.getByRole('button', { name: 'Open' }).click();
    await visitor.page.getByText('top secret').waitFor();
    await Promise.all([admin.context.close(), visitor.context.close()]);
  });
});

describe('cancelling an upload', () => {
  it('leaves no record and no object behind', async () => {
    const admin = await newPerson(suite.browser);
    await loginAsAdmin(admin.page, suite.server.url);
    const token = await adminToken(admin.page);
    const before = (await (await admin.page.request.get(`${suite.server.url}/api/admin/files`, { headers: { Authorization: `Bearer ${token}` } })).json()) as {
      data: { pagination: { total: number } };
    };
    const stored = () => objectsUnder(join(suite.server.dataDir, 'storage')).length + objectsUnder(suite.s3.directory).length;
    const storageBefore = stored();

    // A slow line, so that there is time to press cancel mid-way.
    const cdp = await admin.context.newCDPSession(admin.page);
    await admin.page.goto(`${suite.server.url}/upload`);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 256 * 1024 });
    await dropFiles(admin.page, [{ name: 'big.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(4 * 1024 * 1024, 7) }]);
    const putSent = new Promise<void>((resolve) => admin.context.on('request', (request) => request.method() === 'PUT' && resolve()));
    await admin.page.getByRole('button', { name: 'Upload', exact: true }).click();
    const row = admin.page.locator('li[data-file-name="big.bin"]');
    // Progress counts only what storage acknowledged (a single PUT moves it at its end): cancel while the bytes go.
    await putSent;
    await row.getByRole('status').filter({ hasText: 'Uploading' }).waitFor();
    await row.getByRole('button', { name: 'Cancel big.bin' }).click();
    await row.and(admin.page.locator('[data-task-status="cancelled"]')).waitFor();
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

    await expect
      .poll(async () => {
        const after = (await (await admin.page.request.get(`${suite.server.url}/api/admin/files`, { headers: { Authorization: `Bearer ${token}` } })).json()) as {
          data: { pagination: { total: number } };
        };
        return after.data.pagination.total;
      })
      .toBe(before.data.pagination.total);
    await expect.poll(stored).toBe(storageBefore);
    await admin.context.close();
  });
});
