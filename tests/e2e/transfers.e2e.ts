import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListMultipartUploadsCommand, S3Client } from '@aws-sdk/client-s3';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAsAdmin, newPerson, startServer } from './harness';
import { useSuite } from './suite';
import { ONLINE_CHECK_MS } from '../../workers/engine/waits';

const MIB = 1024 * 1024;
const BIG = 60 * MIB;

const suite = useSuite({ ALLOW_PRIVATE_URLS: '1' }, { s3: true });
let folder: string;
let bigFile: string;
let bigHash: string;
/**
 * Six parts (five of 5 MiB and a short one), for what does not need twelve: a part retried, a reload between parts
 * (three sent, three in flight). Going offline needs parts left after those in flight, and the parts-at-once
 * choice many parts in a row: they keep the 60 MiB file.
 */
let sixPartFile: string;
let sixPartHash: string;
const SIX_PARTS = 5 * 5 * MIB + 4321;
let source: Server;
let sourceUrl: string;
const sourceBytes = randomBytes(7 * MIB + 321);

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'clipstash-transfers-'));
  bigFile = join(folder, 'sixty.bin');
  const bytes = randomBytes(BIG);
  writeFileSync(bigFile, bytes);
  bigHash = createHash('sha256').update(bytes).digest('hex');
  sixPartFile = join(folder, 'six.bin');
  const six = randomBytes(SIX_PARTS);
  writeFileSync(sixPartFile, six);
  sixPartHash = createHash('sha256').update(six).digest('hex');
  // A web server to upload from: /cors answers CORS, /plain does not.
  source = createServer((request, response) => {
    const cors = request.url?.startsWith('/cors');
    if (cors) response.setHeader('Access-Control-Allow-Origin', '*');
    response.setHeader('Content-Type', 'application/octet-stream');
    response.setHeader('Content-Length', String(sourceBytes.length));
    if (request.method === 'HEAD') return response.end();
    response.end(sourceBytes);
  });
  await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
  sourceUrl = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => source?.close(resolve));
  rmSync(folder, { recursive: true, force: true });
});

const token = (page: Page) => page.evaluate(() => localStorage.getItem('admin_token'));
const isPartPut = (request: Request) => request.method() === 'PUT' && /partNumber=\d+/i.test(request.url());
const partNumberOf = (request: Request) => Number(/partNumber=(\d+)/i.exec(request.url())?.[1]);

async function sha256Of(page: Page, slug: string) {
  const response = await page.request.get(`${suite.server.url}/api/file-download/${slug}`);
  expect(response.status()).toBe(200);
  return createHash('sha256').update(await response.body()).digest('hex');
}

async function chooseFile(page: Page, path: string) {
  // The form is there once the page's code has run; the load event is not waited for (in one full run, on a
  // machine busy with two test files at once, it did not come within 30 s, and it is not what these tests are about).
  await page.goto(`${suite.server.url}/upload`, { waitUntil: 'domcontentloaded' });
  await page.getByTestId('file-input').setInputFiles(path);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
}

async function completedSlug(page: Page, name: string) {
  const row = page.locator(`li[data-file-name="${name}"][data-task-status="completed"]`);
  await row.waitFor({ timeout: 120_000 });
  const link = await row.getByRole('textbox', { name: 'Share link' }).inputValue();
  return link.split('/file/')[1] ?? '';
}

function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? filesUnder(path) : [path];
    });
  } catch {
    return [];
  }
}

async function s3MultipartUploads(): Promise<number> {
  const client = new S3Client({
    endpoint: suite.s3.endpoint,
    region: suite.s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: suite.s3.accessKeyId, secretAccessKey: suite.s3.secretAccessKey },
  });
  const listed = await client.send(new ListMultipartUploadsCommand({ Bucket: suite.s3.bucket }));
  return listed.Uploads?.length ?? 0;
}

describe.each(['LOCAL', 'S3'] as const)('multipart uploads on %s', (storage) => {
  it('a 60 MiB file goes up in 12 parts of 5 MiB and arrives byte-identical', async () => {
    const { page, context } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    if (storage === 'S3') {
      const response = await page.request.post(`${suite.server.url}/api/s3-configs`, {
        data: suite.s3.configRequest({ name: 's3rver', is_default: true, is_public: true }),
        headers: { Authorization: `Bearer ${await token(page)}` },
      });
      expect(response.status()).toBe(201);
    }
    const parts: number[] = [];
    context.on('request', (request) => isPartPut(request) && parts.push(partNumberOf(request)));
    await chooseFile(page, bigFile);
    const slug = await completedSlug(page, 'sixty.bin');
    expect(parts.sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, index) => index + 1));
    expect(await sha256Of(page, slug)).toBe(bigHash);
    await context.close();
  });
});

describe('resilience', () => {
  it('a part whose request is cut is retried and the upload completes', async () => {
    const { page, context } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    let cut = 0;
    await context.route(/partNumber=3\b/i, async (route) => {
      if (route.request().method() === 'PUT' && cut++ === 0) return route.abort('connectionreset');
      return route.continue();
    });
    await chooseFile(page, sixPartFile);
    const slug = await completedSlug(page, 'six.bin');
    expect(cut).toBeGreaterThanOrEqual(2);
    expect(await sha256Of(page, slug)).toBe(sixPartHash);
    await context.close();
  });

  it('a cancel in mid-upload leaves no parts and no record', async () => {
    const { page, context } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    const authorization = { Authorization: `Bearer ${await token(page)}` };
    const listFiles = async () =>
      ((await (await page.request.get(`${suite.server.url}/api/admin/files`, { headers: authorization })).json()) as { data: { pagination: { total: number } } }).data
        .pagination.total;
    const filesBefore = await listFiles();
    const localBefore = filesUnder(join(suite.server.dataDir, 'storage')).length;
    const s3Before = await s3MultipartUploads();
    let partsDone = 0;
    let partsSent = 0;
    const inFlight = new Set<Request>();
    context.on('request', (request) => {
      if (!isPartPut(request)) return;
      partsSent++;
      inFlight.add(request);
    });
    context.on('requestfinished', (request) => {
      if (isPartPut(request)) partsDone++;
      inFlight.delete(request);
    });
    context.on('requestfailed', (request) => inFlight.delete(request));
    await chooseFile(page, bigFile);
    await expect.poll(() => partsDone, { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
    const row = page.locator('li[data-file-name="sixty.bin"]');
    await row.getByRole('button', { name: 'Cancel sixty.bin' }).click();
    await page.locator('li[data-file-name="sixty.bin"][data-task-status="cancelled"]').waitFor();
    // The parts in flight are aborted, and none is sent once the task shows cancelled: counted again once the
    // upload's multipart upload is aborted on S3, which the cancel sets off after stopping its parts.
    await expect.poll(() => inFlight.size).toBe(0);
    const sentWhenCancelled = partsSent;
    expect(partsDone).toBeLessThan(12);
    await expect.poll(listFiles).toBe(filesBefore);
    await expect.poll(() => filesUnder(join(suite.server.dataDir, 'storage')).length).toBe(localBefore);
    await expect.poll(s3MultipartUploads).toBe(s3Before);
    expect(partsSent).toBe(sentWhenCancelled);
    await context.close();
  });

  it('the parts-at-once choice is followed at once and kept for the next visit', async () => {
    const { page, context } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    let inFlight = 0;
    let peak = 0;
    context.on('request', (request) => {
      if (!isPartPut(request)) return;
      inFlight++;
      peak = Math.max(peak, inFlight);
    });
    // A part's answer comes before the next part is sent (a finished event may come after it).
    context.on('response', (response) => isPartPut(response.request()) && inFlight--);
    context.on('requestfailed', (request) => isPartPut(request) && inFlight--);
    await page.goto(`${suite.server.url}/upload`);
    await page.getByRole('button', { name: /^Tasks/ }).click();
    const panel = page.getByRole('dialog', { name: 'Task manager' });
    const choice = panel.getByLabel('Parts at once per upload');
    await expect.poll(() => choice.inputValue()).toBe('3');
    // Nothing finished yet: nothing to clear.
    expect(await panel.getByRole('button', { name: 'Clear finished' }).isDisabled()).toBe(true);
    await choice.selectOption('1');
    await page.keyboard.press('Escape');
    await page.getByTestId('file-input').setInputFiles(bigFile);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    // The Tasks button counts the upload while it runs, and no more once it is done.
    await page.getByRole('button', { name: 'Tasks (1 active)' }).waitFor();
    const slug = await completedSlug(page, 'sixty.bin');
    await page.getByRole('button', { name: 'Tasks (0 active)' }).waitFor();
    expect(peak).toBe(1);
    expect(await sha256Of(page, slug)).toBe(bigHash);

    await page.reload();
    await page.getByRole('button', { name: /^Tasks/ }).click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Task manager' }).getByLabel('Parts at once per upload').inputValue()).toBe('1');
    // The finished upload is listed again, and can be cleared.
    await expect.poll(() => panel.getByRole('button', { name: 'Clear finished' }).isEnabled()).toBe(true);
    await context.close();
  });

  it('going offline in mid-upload pauses it, saying so; back online it completes', async () => {
    const { page, context } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    let finished = 0;
    context.on('requestfinished', (request) => isPartPut(request) && finished++);
    // A slow line, so that going offline lands in the middle.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 5, downloadThroughput: -1, uploadThroughput: 3 * MIB });
    await chooseFile(page, bigFile);
    await expect.poll(() => finished, { timeout: 60_000, interval: 50 }).toBeGreaterThanOrEqual(2);
    // Offline as the worker sees it: navigator.onLine false (Chromium's emulation), and every request failing
    // (the emulation lets a worker's requests through, so they are cut here).
    await context.route('**/*', (route) => route.abort('internetdisconnected'));
    await context.setOffline(true);
    const row = page.locator('li[data-file-name="sixty.bin"]');
    await row.getByText(/Waiting for the network/).waitFor({ timeout: 30_000 });
    // Paused, not failed: it waits as long as the browser is offline. A wait that goes on marks nothing, so only a
    // bounded one shows it: past the engine's next look at the online flag, the task still runs.
    await page.waitForTimeout(ONLINE_CHECK_MS + 500);
    expect(await row.getAttribute('data-task-status')).toBe('running');
    await context.unrouteAll();
    await context.setOffline(false);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    const slug = await completedSlug(page, 'sixty.bin');
    expect(await sha256Of(page, slug)).toBe(bigHash);
    await context.close();
  });

  it('a reload in mid-upload resumes without sending finished parts again', async () => {
    const { page, context } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    const sent: number[] = [];
    const finished: number[] = [];
    context.on('request', (request) => isPartPut(request) && sent.push(partNumberOf(request)));
    context.on('requestfinished', (request) => isPartPut(request) && finished.push(partNumberOf(request)));
    // A slow line, so that the reload lands in the middle.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 5, downloadThroughput: -1, uploadThroughput: 3 * MIB });
    await chooseFile(page, sixPartFile);
    await expect.poll(() => finished.length, { timeout: 60_000, interval: 50 }).toBeGreaterThanOrEqual(3);
    await page.reload();
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    const doneBeforeReload = new Set(finished);
    const sentBeforeReload = sent.length;

    await page.getByRole('button', { name: /^Tasks/ }).click();
    const row = page.locator('li[data-file-name="six.bin"][data-task-status="awaitingFile"]');
    await row.getByTestId('resume-six.bin').setInputFiles(sixPartFile);
    const done = page.locator('li[data-file-name="six.bin"][data-task-status="completed"]');
    await done.waitFor({ timeout: 120_000 });

    const resent = sent.slice(sentBeforeReload).filter((part) => doneBeforeReload.has(part));
    expect(resent).toEqual([]);
    expect(sent.length - sentBeforeReload).toBeLessThanOrEqual(6 - doneBeforeReload.size);
    // Parts that landed just as the page went away are found on the storage and not sent again either.
    const files = (await (await page.request.get(`${suite.server.url}/api/admin/files?limit=1`, { headers: { Authorization: `Bearer ${await token(page)}` } })).json()) as {
      data: { items: { slug: string }[] };
    };
    expect(await sha256Of(page, files.data.items[0]?.slug ?? '')).toBe(sixPartHash);
    await context.close();
  }, 150_000);
});

describe('URL uploads', () => {
  it.each(['cors', 'plain'])('uploads from a web address (%s source)', async (kind) => {
    const { page, context } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    await page.goto(`${suite.server.url}/upload`);
    await page.getByRole('tab', { name: 'URL upload' }).click();
    await page.getByLabel('File URL').fill('not a url');
    await page.getByRole('button', { name: 'Check URL' }).click();
    await page.getByText('Enter a valid http or https URL').waitFor();
    await page.getByLabel('File URL').fill(`${sourceUrl}/${kind}/data-${kind}.bin`);
    await page.getByRole('button', { name: 'Check URL' }).click();
    const info = page.getByRole('definition').filter({ hasText: kind === 'cors' ? 'Directly from the source' : 'Through this server' });
    await info.waitFor();
    await page.getByRole('button', { name: 'Upload from URL' }).click();
    const slug = await completedSlug(page, `data-${kind}.bin`);
    const response = await page.request.get(`${suite.server.url}/api/file-download/${slug}`);
    expect(createHash('sha256').update(await response.body()).digest('hex')).toBe(createHash('sha256').update(sourceBytes).digest('hex'));
    await context.close();
  });

  it('a file or a source over the upload limit is refused before anything is sent', async () => {
    const { page, context } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    const headers = { Authorization: `Bearer ${await token(page)}` };
    const settingsUrl = `${suite.server.url}/api/admin/system-settings`;
    const before = ((await (await page.request.get(settingsUrl, { headers })).json()) as { data: { max_upload_size: number } }).data.max_upload_size;
    // The source has 7 MiB and a bit.
    expect((await page.request.put(settingsUrl, { headers, data: { max_upload_size: 5 } })).status()).toBe(200);
    try {
      const sent: string[] = [];
      context.on('request', (request) => (request.url().startsWith(sourceUrl) || request.method() === 'PUT') && sent.push(request.url()));
      // Said as soon as the file is chosen, and Upload waits until it is removed.
      await page.goto(`${suite.server.url}/upload`);
      await page.getByTestId('file-input').setInputFiles(bigFile);
      await page.getByRole('alert').filter({ hasText: 'sixty.bin is 60.0 MB, over the 5.00 MB upload limit' }).waitFor();
      const upload = page.getByRole('button', { name: 'Upload', exact: true });
      expect(await upload.isDisabled()).toBe(true);
      await page.getByRole('button', { name: 'Remove sixty.bin' }).click();
      await expect.poll(() => page.getByRole('alert').count()).toBe(0);
      expect(await page.locator('li[data-task-status]').count()).toBe(0);

      await page.getByRole('tab', { name: 'URL upload' }).click();
      await page.getByLabel('File URL').fill(`${sourceUrl}/cors/huge.bin`);
      await page.getByRole('button', { name: 'Check URL' }).click();
      await page.getByRole('alert').filter({ hasText: 'huge.bin is 7.00 MB, over the 5.00 MB upload limit' }).waitFor();
      await expect.poll(() => page.getByRole('button', { name: 'Upload from URL' }).isDisabled()).toBe(true);
      expect(sent).toEqual([]);
    } finally {
      await page.request.put(settingsUrl, { headers, data: { max_upload_size: before } });
      await context.close();
    }
  });
});

describe('URL safety', () => {
  it('refuses loopback without ALLOW_PRIVATE_URLS and the metadata address always', async () => {
    const strict = await startServer();
    try {
      const { page, context } = await newPerson(suite.browser);
      await loginAsAdmin(page, strict.url);
      const info = async (url: string) =>
        page.request.post(`${strict.url}/api/url/info`, { data: { url }, headers: { Authorization: `Bearer ${await token(page)}` } });
      expect((await info(`${sourceUrl}/cors/x.bin`)).status()).toBe(400);
      expect((await info('http://169.254.169.254/latest/meta-data/')).status()).toBe(400);
      expect((await info('file:///etc/passwd')).status()).toBe(400);
      await context.close();
    } finally {
      await strict.stop();
    }
    const { page, context } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    const metadata = await page.request.post(`${suite.server.url}/api/url/info`, {
      data: { url: 'http://169.254.169.254/latest/meta-data/' },
      headers: { Authorization: `Bearer ${await token(page)}` },
    });
    expect(metadata.status()).toBe(400);
    await context.close();
  });
});
