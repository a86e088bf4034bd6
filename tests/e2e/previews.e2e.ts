import type { Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { a11yInBothThemes, adminToken, loginAsAdmin, newPerson } from './harness';
import { docxFile, epubFile, pptxFile, tarGzFile, xlsxFile, zipWithFiller } from './office-files';
import { useSuite } from './suite';

const suite = useSuite();
let token = '';

beforeAll(async () => {
  token = await adminToken(suite.server.url);
});

/** A file shared through the API; answers its share page's address. */
async function share(name: string, mimetype: string, bytes: Buffer): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: mimetype }), name);
  const answer = await fetch(`${suite.server.url}/api/upload`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${token}` } });
  expect(answer.status).toBe(201);
  return `${suite.server.url}/file/${((await answer.json()) as { data: { slug: string } }).data.slug}`;
}

/** What each GET to the file's URL asked for: every one must carry a Range header; answers the bytes asked in all. */
async function rangedBytes(requests: Request[], isFile: (path: string) => boolean, size: number): Promise<number> {
  const gets = requests.filter((request) => request.method() === 'GET' && isFile(new URL(request.url()).pathname));
  expect(gets.length).toBeGreaterThan(0);
  let asked = 0;
  for (const request of gets) {
    const range = /^bytes=(\d+)-(\d*)$/.exec((await request.allHeaders()).range ?? '');
    expect(range, `${request.url()} without a Range header`).not.toBeNull();
    asked += (range?.[2] ? Number(range[2]) : size - 1) - Number(range?.[1]) + 1;
  }
  return asked;
}

/** Every request the page and its frames make, as the browser sent it. */
function recordRequests(page: Page): Request[] {
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));
  return requests;
}

/** Requests that left for another origin (data: and blob: URLs never leave the browser). */
const elsewhere = (requests: Request[]) =>
  requests.map((request) => request.url()).filter((url) => !/^(data|blob):/.test(url) && new URL(url).origin !== suite.server.url);

const MIME = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

describe('Office, EPUB and zip previews on a file share page', () => {
  it('renders a docx, an xlsx (tab to the second sheet) and a pptx in the page, asking nothing of any other site', async () => {
    const pages = {
      docx: await share('report.docx', MIME.docx, await docxFile('Quarterly report for the board')),
      xlsx: await share('budget.xlsx', MIME.xlsx, await xlsxFile({ Costs: ['Rent', 'Power'], People: ['Ada', 'Grace'] })),
      pptx: await share('talk.pptx', MIME.pptx, await pptxFile('Welcome to the talk')),
    };
    const { context, page, errors } = await newPerson(suite.browser);
    const requests = recordRequests(page);

    await page.goto(pages.docx);
    await page.getByRole('document', { name: 'Document report.docx' }).getByText('Quarterly report for the board').waitFor();
    expect(await a11yInBothThemes(page, 'docx')).toEqual([]);

    await page.goto(pages.xlsx);
    const costs = page.getByRole('tab', { name: 'Costs' });
    await page.getByRole('tabpanel').getByRole('cell', { name: 'Rent' }).waitFor();
    expect(await costs.getAttribute('aria-selected')).toBe('true');
    await page.getByRole('tab', { name: 'People' }).click();
    await page.getByRole('tabpanel').getByRole('cell', { name: 'Grace' }).waitFor();
    expect(await page.getByRole('cell', { name: 'Rent' }).count()).toBe(0);
    expect(await a11yInBothThemes(page, 'xlsx')).toEqual([]);

    await page.goto(pages.pptx);
    await page.getByRole('document', { name: 'Slides of talk.pptx' }).getByText('Welcome to the talk').waitFor();

    // The online viewers are off by default: no link to them anywhere.
    expect(await page.getByRole('link', { name: /Microsoft viewer|Google viewer/ }).count()).toBe(0);
    expect(elsewhere(requests)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('pages through an EPUB in a frame where its scripts cannot run', async () => {
    const url = await share(
      'book.epub',
      'application/epub+zip',
      await epubFile([
        ['The beginning', 'It was a quiet morning.'],
        ['The end', 'And that was all.'],
      ]),
    );
    const { context, page, errors } = await newPerson(suite.browser);
    const requests = recordRequests(page);
    await page.exposeFunction('scriptRan', () => errors.push('a script of the book ran'));
    await page.addInitScript(() => addEventListener('message', (event) => event.data === 'epub-script-ran' && (window as unknown as { scriptRan(): void }).scriptRan()));
    await page.goto(url);

    const book = page.getByRole('region', { name: 'Book book.epub' });
    const chapter = book.frameLocator('iframe');
    await chapter.getByText('It was a quiet morning.').waitFor();
    expect(await book.locator('iframe').getAttribute('sandbox')).not.toContain('allow-scripts');
    await page.getByRole('button', { name: 'Next page' }).click();
    await chapter.getByText('And that was all.').waitFor();
    await page.getByRole('button', { name: 'Previous page' }).click();
    await chapter.getByText('It was a quiet morning.').waitFor();
    await page.getByRole('combobox', { name: 'Chapter' }).selectOption({ label: 'The end' });
    await chapter.getByText('And that was all.').waitFor();
    // The book's own pages are its author's; axe cannot run in their script-less frame anyway.
    expect(await a11yInBothThemes(page, 'epub', ['.epub-container iframe'])).toEqual([]);

    expect(elsewhere(requests)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lists a zip and opens a text file in it with Range requests, never downloading the whole archive', async () => {
    const archive = await zipWithFiller('notes/readme.txt', 'Hello from inside the zip', 3 * 1024 * 1024);
    const url = await share('bundle.zip', 'application/zip', archive);
    const { context, page, errors } = await newPerson(suite.browser);
    const requests = recordRequests(page);
    await page.goto(url);

    const files = page.getByRole('list', { name: 'Files in bundle.zip' });
    await files.getByText('notes/readme.txt').waitFor();
    await files.getByText('filler.bin').waitFor();
    await page.getByRole('button', { name: 'Open notes/readme.txt' }).click();
    await page.getByLabel('Contents of readme.txt').getByText('Hello from inside the zip').waitFor();
    expect(await a11yInBothThemes(page, 'zip')).toEqual([]);

    expect(await rangedBytes(requests, (path) => path.startsWith('/api/file-view/'), archive.length)).toBeLessThan(archive.length / 10);

    expect(elsewhere(requests)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('reads a tar.gz whole with libarchive (its worker and wasm from this server) and opens a file in it', async () => {
    const url = await share('src.tar.gz', 'application/gzip', tarGzFile({ 'src/main.ts': 'console.log("tarred")', 'LICENSE.txt': 'MIT' }));
    const { context, page, errors } = await newPerson(suite.browser);
    const requests = recordRequests(page);
    await page.goto(url);
    await page.getByText('This kind of archive is read whole in the browser').waitFor();
    await page.getByRole('button', { name: 'Open src/main.ts' }).click();
    await page.getByLabel('Contents of main.ts').getByText('console.log("tarred")').waitFor();
    expect(requests.map((request) => new URL(request.url()).pathname).filter((path) => path.endsWith('.wasm'))).toHaveLength(1);
    expect(elsewhere(requests)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('offers the online viewers only once the admin turns them on', async () => {
    const url = await share('old.doc', 'application/msword', Buffer.from('an old Word file'));
    const { context, page } = await newPerson(suite.browser);
    await page.goto(url);
    await page.getByRole('heading', { name: 'No preview for this type' }).waitFor();
    expect(await page.getByRole('link', { name: 'Open in Microsoft viewer' }).count()).toBe(0);

    // The admin turns them on in the system settings, as a person would.
    const admin = await newPerson(suite.browser);
    await loginAsAdmin(admin.page, suite.server.url);
    await admin.page.goto(`${suite.server.url}/admin/settings`);
    const setting = admin.page.getByRole('checkbox', { name: "Offer Microsoft's and Google's online viewers for Office files" });
    await expect(setting.isChecked()).resolves.toBe(false);
    await setting.check();
    await admin.page.getByRole('button', { name: 'Save settings' }).click();
    await admin.page.getByText('Settings saved').first().waitFor();
    await admin.context.close();
    try {
      await page.reload();
      const microsoft = page.getByRole('link', { name: 'Open in Microsoft viewer' });
      await microsoft.waitFor();
      expect(await microsoft.getAttribute('href')).toMatch(/^https:\/\/view\.officeapps\.live\.com\/op\/view\.aspx\?src=http/);
    } finally {
      await fetch(`${suite.server.url}/api/admin/system-settings`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ online_office_viewers: false }),
      });
      await context.close();
    }
  });

  it('says a broken document cannot be read and offers the download', async () => {
    const url = await share('broken.docx', MIME.docx, Buffer.from('this is not a zip at all'));
    const { context, page } = await newPerson(suite.browser);
    await page.goto(url);
    const failure = page.getByRole('alert').filter({ hasText: 'No preview' });
    await failure.getByText('The file could not be read').waitFor();
    expect(await failure.getByRole('link', { name: 'Download' }).getAttribute('href')).toMatch(/\/api\/file-download\//);
    await context.close();
  });
});

describe('the mount explorer', () => {
  it('previews a zip of a mount in its panel, by Range requests', async () => {
    const archive = await zipWithFiller('docs/todo.txt', 'Water the plants', 3 * 1024 * 1024);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(archive)]), 'archive.zip');
    form.append('path', '/local/previews/');
    const upload = await fetch(`${suite.server.url}/api/admin/fs/upload`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
    expect(upload.status).toBe(201);

    const { context, page, errors } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    const requests = recordRequests(page);
    await page.goto(`${suite.server.url}/mount-explorer/local/previews?preview=archive.zip`);
    const panel = page.getByRole('region', { name: 'Preview of archive.zip' });
    await panel.getByRole('button', { name: 'Open docs/todo.txt' }).click();
    await panel.getByLabel('Contents of todo.txt').getByText('Water the plants').waitFor();

    // The panel's signed link to the file: the one the Range requests went to.
    const ranged = requests.find((request) => request.headers().range !== undefined);
    expect(ranged).toBeDefined();
    const filePath = new URL(ranged?.url() ?? '/').pathname;
    expect(await rangedBytes(requests, (path) => path === filePath, archive.length)).toBeLessThan(archive.length / 10);
    expect(elsewhere(requests)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
