import { readdirSync, readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SETTLE_MS } from '../../src/lib/idle';
import { adminToken, loginAsAdmin, newPerson, seriousA11yViolations, takeCspViolations } from './harness';
import { useSuite } from './suite';

const suite = useSuite();

async function typeInEditor(page: Page, text: string) {
  await page.locator('.cm-content').click();
  await page.keyboard.insertText(text);
}

/** Creates a paste through the API as the logged-in admin of this page. */
async function apiPaste(page: Page, body: Record<string, unknown>) {
  const token = await page.evaluate(() => localStorage.getItem('admin_token'));
  const response = await page.request.post(`${suite.server.url}/api/paste`, { data: body, headers: { Authorization: `Bearer ${token}` } });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { data: { slug: string; id: string } }).data;
}

/** Creates a paste through the API as the admin, with no browser involved. */
async function adminPaste(body: Record<string, unknown>) {
  const created = await fetch(`${suite.server.url}/api/paste`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', Authorization: `Bearer ${await adminToken(suite.server.url)}` },
    body: JSON.stringify(body),
  });
  expect(created.status).toBe(201);
}

describe('sharing a paste', () => {
  it('admin shares Markdown with a password and 2 views; a visitor unlocks it, reads the raw link, then finds it used up', async () => {
    const admin = await newPerson(suite.browser);
    await loginAsAdmin(admin.page, suite.server.url);
    await admin.page.getByRole('link', { name: 'Home' }).click();
    await typeInEditor(admin.page, '# Release notes\n\n- [x] fast\n- [ ] safe\n\n| a | b |\n|---|---|\n| 1 | 2 |\n');
    await admin.page.getByRole('region', { name: 'Preview' }).getByRole('heading', { name: 'Release notes' }).waitFor();
    await admin.page.getByLabel('Link suffix').fill('notes-e2e');
    await admin.page.getByText('Available').waitFor();
    await admin.page.getByLabel('Password').fill('open sesame');
    await admin.page.getByLabel('Max views').fill('2');
    await admin.page.getByLabel('Remark').fill('Release notes');
    await admin.page.getByRole('button', { name: 'Create share' }).click();
    const link = admin.page.getByRole('textbox', { name: 'Share link' });
    await link.waitFor();
    const url = await link.inputValue();
    expect(url).toBe(`${suite.server.url}/paste/notes-e2e`);
    // The one-off settings are cleared for the next share.
    for (const field of ['Link suffix', 'Password', 'Max views', 'Remark']) expect(await admin.page.getByLabel(field).inputValue()).toBe('');
    await admin.page.getByRole('button', { name: 'QR code' }).click();
    await admin.page.locator('[role="img"][data-ready="true"]').waitFor();
    await admin.page.getByText(/Link will be hidden in \d+ seconds/).waitFor();

    const visitor = await newPerson(suite.browser);
    const dialogs: string[] = [];
    visitor.page.on('dialog', (dialog) => void dialog.dismiss().then(() => dialogs.push(dialog.message())));
    await visitor.page.goto(url);
    await visitor.page.getByRole('heading', { name: 'This share is protected' }).waitFor();
    await visitor.page.getByLabel('Password').fill('wrong');
    await visitor.page.getByRole('button', { name: 'Open' }).click();
    await visitor.page.getByText('Wrong password').waitFor();
    await visitor.page.getByLabel('Password').fill('open sesame');
    await visitor.page.getByRole('button', { name: 'Open' }).click();
    const content = visitor.page.getByRole('region', { name: 'Shared content' });
    await content.getByRole('heading', { name: 'Release notes' }).waitFor();
    expect(await content.locator('table td').allTextContents()).toEqual(['1', '2']);
    expect(await content.locator('input[type="checkbox"]').count()).toBe(2);
    await visitor.page.getByText('1 of 2 views').waitFor();

    // The raw link is plain text and counts the second view.
    const rawHref = await visitor.page.getByRole('link', { name: 'Raw' }).getAttribute('href');
    const raw = await visitor.page.request.get(rawHref ?? '');
    expect(raw.status()).toBe(200);
    expect(raw.headers()['content-type']).toContain('text/plain');
    expect(await raw.text()).toContain('# Release notes');

    await visitor.page.reload();
    await visitor.page.getByRole('heading', { name: 'This share has expired or been used up' }).waitFor();
    expect(await seriousA11yViolations(visitor.page)).toEqual([]);

    // The admin still sees it, marked used up.
    await admin.page.goto(`${suite.server.url}/admin/text-management`);
    const row = admin.page.locator('tr[data-slug="notes-e2e"]');
    await row.getByText('Used up').waitFor();
    expect((await row.locator('td[data-label="Password"]').innerText()).trim()).toBe('Yes');
    expect(dialogs).toEqual([]);
    await Promise.all([admin.context.close(), visitor.context.close()]);
  });

  it('a visitor cannot share, and is told how to log in', async () => {
    const { page, context } = await newPerson(suite.browser);
    await page.goto(`${suite.server.url}/`);
    await page.getByText('Creating a share needs an admin login or an API key with text permission.').waitFor();
    await page.getByRole('main').getByRole('link', { name: 'Log in' }).click();
    await page.waitForURL(`${suite.server.url}/admin?next=%2F`);
    await context.close();
  });

  it("a visitor's paste renders without the state machines, which load once the page has settled", async () => {
    await adminPaste({ slug: 'light-visit', content: '# Light visit\n\nJust text.' });
    const { page, context } = await newPerson(suite.browser);
    await page.goto(`${suite.server.url}/paste/light-visit`);
    await page.getByRole('heading', { name: 'Light visit' }).waitFor();
    // XState and the app's actors (src/app/create-actors.ts): not requested before SETTLE_MS, however slow the
    // render; the theme toggle loads them when clicked before.
    const machineLoads = () =>
      page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .filter((entry) => /\/assets\/(xstate|create-actors)-/.test(entry.name))
          .map((entry) => entry.startTime),
      );
    expect((await machineLoads()).filter((startTime) => startTime < SETTLE_MS)).toEqual([]);
    // The file page's code, and what only it shares with other pages (its previews, the file API), is in chunks of
    // its own (scripts/share-page-chunks.ts), which a paste does not load.
    expect(readdirSync('dist/assets').filter((name) => /^file-(view|shared)-[\w-]+\.js$/.test(name))).toHaveLength(2);
    const fileChunkLoads = await page.evaluate(() => performance.getEntriesByType('resource').filter((entry) => /\/assets\/file-(view|shared)-/.test(entry.name)).length);
    expect(fileChunkLoads).toBe(0);
    // The server sent the paste's HTML with its text (contract/pastes.ts contentHtml): no Markdown parser loads,
    // neither into the page nor into its worker (src/lib/markdown/parse.ts).
    const parserLoads = await page.evaluate(() => performance.getEntriesByType('resource').filter((entry) => /\/assets\/(marked|markdown-parser|markdown\.worker)/.test(entry.name)).length);
    expect(parserLoads).toBe(0);
    await page.getByRole('button', { name: /^Theme: Auto/ }).click();
    await page.getByRole('button', { name: /^Theme: Light/ }).waitFor();
    expect(await page.evaluate(() => [document.documentElement.dataset.theme, localStorage.getItem('themeMode')])).toEqual(['light', 'light']);
    expect(await machineLoads()).toHaveLength(2);
    await context.close();
  });

  it("a visitor's paste renders from seven scripts: the entry holds React, the router, Lingui and the shell", async () => {
    await adminPaste({ slug: 'few-scripts', content: '# Few scripts' });
    const { page, context } = await newPerson(suite.browser);
    await page.goto(`${suite.server.url}/paste/few-scripts`);
    await page.getByRole('heading', { name: 'Few scripts' }).waitFor();
    // Each script of a first load costs a request's headers (vite.config.ts, the entry's code-splitting group):
    // what a share's page needs before it has settled, by chunk name (the name before the 8-character hash).
    const scripts = await page.evaluate((settleMs) => {
      const names = performance
        .getEntriesByType('resource')
        .filter((entry) => entry.startTime < settleMs)
        .map((entry) => /\/assets\/(.+)-[\w-]{8}\.js$/.exec(entry.name)?.[1])
        .filter((name) => name !== undefined);
      return names.sort();
    }, SETTLE_MS);
    expect(scripts).toEqual(['index', 'markdown-view', 'paste-view', 'react-dom', 'rolldown-runtime', 'share-view', 'visitor-paste']);
    await context.close();
  });

  it("the settings gear, pressed on a share's page before it has settled, opens the dialog with its words", async () => {
    await adminPaste({ slug: 'early-settings', content: 'Settings at once.' });
    const { page, context } = await newPerson(suite.browser);
    // The dialog's first render, as the DOM first holds it: the paste's visitor catalog lacks its words.
    await context.addInitScript(() => {
      new MutationObserver((_, observer) => {
        const heading = document.getElementById('offline-data-heading');
        if (!heading) return;
        (window as unknown as { __firstHeading?: string }).__firstHeading = heading.textContent ?? '';
        observer.disconnect();
      }).observe(document, { subtree: true, childList: true });
    });
    await page.goto(`${suite.server.url}/paste/early-settings`);
    await page.getByText('Settings at once.').waitFor();
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('dialog', { name: 'Settings' }).getByRole('heading', { name: 'Offline data' }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { __firstHeading?: string }).__firstHeading)).toBe('Offline data');
    await context.close();
  });

  it("a visitor's paste renders with its visitor catalog; the whole one and the code colouring load once the page has settled", async () => {
    await adminPaste({ slug: 'visitor-zh', content: '# 你好\n\n```js\nconst answer = 42;\n```' });
    const { page, context } = await newPerson(suite.browser, { locale: 'zh-CN' });
    await page.goto(`${suite.server.url}/paste/visitor-zh`);
    await page.getByRole('heading', { name: '你好' }).waitFor();
    await page.getByRole('button', { name: '复制内容' }).waitFor();
    await page.locator('code.hljs .hljs-keyword').waitFor();
    const loadsOf = (pattern: string) =>
      page.evaluate(
        (source) =>
          performance
            .getEntriesByType('resource')
            .filter((entry) => new RegExp(source).test(entry.name))
            .map((entry) => entry.startTime),
        pattern,
      );
    // The whole catalog, highlight.js and its JavaScript grammar: loaded, but not before SETTLE_MS. All three
    // start once the page has settled, in no set order: the colouring can show before the catalog has loaded.
    for (const chunk of ['messages', 'core', 'javascript']) {
      const pattern = `/assets/${chunk}-[\\w-]+\\.js$`;
      await page.waitForFunction((source) => performance.getEntriesByType('resource').some((entry) => new RegExp(source).test(entry.name)), pattern);
      const starts = await loadsOf(pattern);
      expect(starts.length, chunk).toBeGreaterThan(0);
      expect(starts.filter((startTime) => startTime < SETTLE_MS), chunk).toEqual([]);
    }
    await context.close();

    // A page linked from the share, opened at once (before the share's page has settled, as a rule), renders with
    // the whole catalog.
    const early = await newPerson(suite.browser, { locale: 'zh-CN' });
    await early.page.goto(`${suite.server.url}/paste/visitor-zh`);
    await early.page.getByRole('link', { name: '首页' }).first().click();
    await early.page.getByText('创建分享需要管理员登录或带有文本权限的 API 密钥。').waitFor();
    await early.context.close();
  });

  it('a long paste, which the server leaves to the reader, is rendered by a worker of the page', async () => {
    // Over 64 KiB: no contentHtml (server/features/pastes/markdown.ts), the page parses it (src/lib/markdown/parse.ts).
    await adminPaste({ slug: 'long-read', content: `# Long read\n\n${'A line of *prose*.\n\n'.repeat(4000)}` });
    const { page, context } = await newPerson(suite.browser);
    await page.goto(`${suite.server.url}/paste/long-read`);
    const content = page.getByRole('region', { name: 'Shared content' });
    await content.getByRole('heading', { name: 'Long read' }).waitFor();
    expect(await content.locator('em').count()).toBe(4000);
    const workerLoads = await page.evaluate(() => performance.getEntriesByType('resource').filter((entry) => /\/assets\/markdown\.worker-/.test(entry.name)).length);
    expect(workerLoads).toBe(1);
    await context.close();
  });

  it('opening a link that does not exist says so', async () => {
    const { page, context } = await newPerson(suite.browser);
    await page.goto(`${suite.server.url}/paste/nothing-here`);
    await page.getByRole('heading', { name: 'Share not found' }).waitFor();
    await context.close();
  });
});

describe('the editor', () => {
  it('autosaves a draft after 30 seconds and offers it back after a reload', async () => {
    const { page, context } = await newPerson(suite.browser);
    await page.clock.install();
    await page.goto(`${suite.server.url}/`);
    await typeInEditor(page, 'Draft worth keeping');
    await page.clock.fastForward(31_000);
    await page.getByText(/Draft saved at/).waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Restore draft' }).click();
    await expect(page.locator('.cm-content').textContent()).resolves.toBe('Draft worth keeping');
    await context.close();
  });

  it('exports Word and PNG files of the right type', async () => {
    const { page, context } = await newPerson(suite.browser);
    await page.goto(`${suite.server.url}/`);
    await typeInEditor(page, '# Export me\n\nSome **bold** text and `code`.\n\n1. one\n2. two\n');
    await page.getByRole('region', { name: 'Preview' }).getByRole('heading', { name: 'Export me' }).waitFor();

    const [word] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export Word' }).click()]);
    expect(word.suggestedFilename()).toBe('Export me.docx');
    const docx = readFileSync((await word.path()) ?? '');
    expect(docx.subarray(0, 2).toString()).toBe('PK');
    expect(docx.includes(Buffer.from('word/document.xml'))).toBe(true);

    const [picture] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export PNG' }).click()]);
    expect(picture.suggestedFilename()).toBe('Export me.png');
    const png = readFileSync((await picture.path()) ?? '');
    expect([...png.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(png.length).toBeGreaterThan(1000);
    await context.close();
  });

  it('keeps what was typed before CodeMirror loaded: its text, caret and focus, and the typing goes on in CodeMirror', async () => {
    const { page, context, errors } = await newPerson(suite.browser);
    // CodeMirror's code is held back until the textarea has been typed in: the takeover happens mid-typing.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/code-mirror-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${suite.server.url}/`);
    await page.locator('[data-testid="markdown-editor"] textarea').click();
    await page.keyboard.insertText('# Early\n\nab');
    await page.keyboard.press('ArrowLeft');
    await page.getByRole('region', { name: 'Preview' }).getByRole('heading', { name: 'Early' }).waitFor();
    release();
    await page.locator('.cm-content').waitFor();
    expect(await page.locator('[data-testid="markdown-editor"] textarea').count()).toBe(0);
    await page.keyboard.insertText('X');
    await expect.poll(() => page.locator('.cm-content').textContent()).toBe('# EarlyaXb');
    await page.getByRole('region', { name: 'Preview' }).getByText('aXb').waitFor();
    // Undo takes back the typing in CodeMirror, then what the textarea got, as a step of its own.
    await page.keyboard.press('Control+z');
    await expect.poll(() => page.locator('.cm-content').textContent()).toBe('# Earlyab');
    await page.keyboard.press('Control+z');
    await page.locator('.cm-placeholder').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('imports a Markdown file and clears after confirming', async () => {
    const { page, context } = await newPerson(suite.browser);
    await page.goto(`${suite.server.url}/`);
    await page.getByTestId('import-file').setInputFiles({ name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from('## Imported heading') });
    await page.getByRole('region', { name: 'Preview' }).getByRole('heading', { name: 'Imported heading' }).waitFor();
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    await page.getByRole('alertdialog', { name: 'Clear the content?' }).getByRole('button', { name: 'Clear' }).click();
    // An empty editor shows its placeholder, and only then.
    await page.locator('.cm-placeholder').waitFor();
    await page.getByText('The preview appears here as you type.').waitFor();
    await context.close();
  });
});

describe('safety of rendered shares', () => {
  // Chromium has the HTML Sanitizer API (Element.setHTML); other browsers load DOMPurify instead: both walk the corpus.
  it.each([
    { sanitizer: "the browser's own sanitizer", withoutSetHtml: false },
    { sanitizer: 'DOMPurify', withoutSetHtml: true },
  ])('runs nothing from an XSS corpus with $sanitizer', async ({ withoutSetHtml }) => {
    const admin = await newPerson(suite.browser);
    await loginAsAdmin(admin.page, suite.server.url);
    const corpus = [
      '# Hostile',
      '[a safe link](https://example.invalid/page)',
      '<script>window.__xss = "script"</script>',
      '<img src="x" onerror="window.__xss = \'img\'">',
      '[click me](javascript:window.__xss=\'link\')',
      '<a href="javascript:window.__xss=\'anchor\'">anchor</a>',
      '<svg xmlns="http://www.w3.org/2000/svg" onload="window.__xss=\'svg\'"><script>window.__xss="svg-script"</script></svg>',
      '<iframe src="javascript:parent.__xss=\'iframe\'"></iframe>',
      '<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>',
      '<details open ontoggle="window.__xss=\'details\'">x</details>',
      '<math><mtext><table><mglyph><style><img src=x onerror="window.__xss=\'math\'">',
      '<form action="javascript:window.__xss=1"><button>go</button></form>',
      // DOM clobbering: an element named __xss would be window.__xss.
      '<img name="__xss" src="/x.png" alt="clobber"> <a id="__xss">clobber</a> <form id="__xss"></form>',
      '<marquee onstart="window.__xss=\'marquee\'">x</marquee>',
    ].join('\n\n');
    const { slug } = await apiPaste(admin.page, { content: corpus });

    const visitor = await newPerson(suite.browser);
    if (withoutSetHtml) await visitor.context.addInitScript(() => delete (Element.prototype as { setHTML?: unknown }).setHTML);
    const dialogs: string[] = [];
    visitor.page.on('dialog', (dialog) => void dialog.dismiss().then(() => dialogs.push(dialog.message())));
    const pasteReads: string[] = [];
    const purifyLoads: string[] = [];
    visitor.page.on('request', (request) => {
      // The page's peek (HEAD) spends no view: only the reads that may.
      if (request.url().includes('/api/paste/') && request.method() !== 'HEAD') pasteReads.push(request.url());
      if (/\/assets\/purify[.-]/.test(request.url())) purifyLoads.push(request.url());
    });
    await visitor.page.goto(`${suite.server.url}/paste/${slug}`);
    const body = visitor.page.getByRole('region', { name: 'Shared content' });
    await body.getByRole('heading', { name: 'Hostile' }).waitFor();
    // Opening the page asked once and counted exactly one view.
    expect(pasteReads).toHaveLength(1);
    await visitor.page.getByText('1 view', { exact: true }).waitFor();
    // Click every link that survived, as a curious reader would (but the one that leaves the site).
    for (const link of await body.locator('a:not([href^="https:"])').all()) await link.click({ modifiers: [] }).catch(() => undefined);
    // What the corpus could run comes from an image's load or failure, a toggle, an animation's start or a click's
    // navigation: all past once every image of the body has settled and two frames and a task have followed.
    await body.evaluate(async (root) => {
      await Promise.all([...root.querySelectorAll('img')].map((img) => img.decode().catch(() => undefined)));
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0))));
    });
    expect(await visitor.page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
    const dangerous = await body.evaluate((root) => ({
      scripts: root.querySelectorAll('script, iframe, svg, math, form, style, marquee').length,
      unprefixed: [...root.querySelectorAll('[id], [name]')].filter((el) => ['id', 'name'].some((name) => !(el.getAttribute(name) ?? 'user-content-').startsWith('user-content-'))).length,
      handlers: [...root.querySelectorAll('*')].filter((el) => [...el.attributes].some((a) => a.name.startsWith('on'))).length,
      jsLinks: root.querySelectorAll('a[href^="javascript" i]').length,
    }));
    expect(dangerous).toEqual({ scripts: 0, unprefixed: 0, handlers: 0, jsLinks: 0 });
    // The links that stayed open in a new tab, without a way back through window.opener.
    const links = await body.locator('a[href]').evaluateAll((anchors) => anchors.map((a) => `${a.getAttribute('target')} ${a.getAttribute('rel')}`));
    expect(links.length).toBeGreaterThan(0);
    expect(new Set(links)).toEqual(new Set(['_blank noopener noreferrer nofollow']));
    // DOMPurify loads only where the browser has no sanitizer of its own.
    expect(purifyLoads).toHaveLength(withoutSetHtml ? 1 : 0);
    // Chromium may report the corpus's handlers as blocked when DOMPurify parses them into its inert document,
    // where nothing can run: the only violations allowed here, the CSP standing behind the sanitiser.
    const violations = takeCspViolations();
    expect(violations.filter((violation) => !violation.includes('Executing inline event handler'))).toEqual([]);
    await Promise.all([admin.context.close(), visitor.context.close()]);
  });
});

describe('pasted HTML cannot take over the page', () => {
  // Both sanitisers, as the XSS corpus above: Chromium's own (Element.setHTML) and DOMPurify where there is none.
  const SANITIZERS = [
    { sanitizer: "the browser's own sanitizer", withoutSetHtml: false },
    { sanitizer: 'DOMPurify', withoutSetHtml: true },
  ];

  /** A visitor's page, with or without the browser's sanitizer, recording whether its tab crashed. */
  async function visitor(withoutSetHtml: boolean) {
    const person = await newPerson(suite.browser);
    if (withoutSetHtml) await person.context.addInitScript(() => delete (Element.prototype as { setHTML?: unknown }).setHTML);
    const crashes: string[] = [];
    person.page.on('crash', () => crashes.push(person.page.url()));
    return { ...person, crashes };
  }

  it.each(SANITIZERS)("a paste's id and name attributes shadow none of the page's globals with $sanitizer", async ({ withoutSetHtml }) => {
    const slug = `clobbering-${withoutSetHtml ? 'purify' : 'browser'}`;
    await adminPaste({
      slug,
      content: [
        '# Clobbering',
        // window.__CLIPSTASH_CONFIG__ would be an HTMLCollection whose `apiBaseUrl` is the last anchor: the page's
        // API address (src/lib/backend-url.ts) an element, and every request after it a TypeError.
        '<img name="__CLIPSTASH_CONFIG__" src="/missing.png" alt="config">',
        '<a id="__CLIPSTASH_CONFIG__">first</a> <a id="__CLIPSTASH_CONFIG__" name="apiBaseUrl" href="https://evil.invalid/">second</a>',
        '<form id="clobber-form" name="clobber-form-name"><input name="action" value="x"></form>',
        '<span name="name-only">name only</span> <div id="div-id">div</div>',
        '<input name="search" type="text" value="typed">',
      ].join('\n\n'),
    });

    const { page, context, errors } = await visitor(withoutSetHtml);
    await page.goto(`${suite.server.url}/paste/${slug}`);
    const body = page.getByRole('region', { name: 'Shared content' });
    await body.getByRole('heading', { name: 'Clobbering' }).waitFor();
    await body.getByText('name only').waitFor();
    const globals = await page.evaluate(() => {
      const named = window as unknown as Record<string, unknown>;
      return {
        config: typeof named.__CLIPSTASH_CONFIG__,
        divId: typeof named['div-id'],
        formById: document.getElementById('clobber-form'),
        formByName: typeof (document as unknown as Record<string, unknown>)['clobber-form-name'],
        search: typeof named.search,
      };
    });
    expect(globals).toEqual({ config: 'undefined', divId: 'undefined', formById: null, formByName: 'undefined', search: 'undefined' });
    // Every id and name the paste kept is its own: prefixed, as GitHub does.
    const named = await body.evaluate((root) =>
      [...root.querySelectorAll('[id], [name]')].map((element) => `${element.getAttribute('id') ?? ''} ${element.getAttribute('name') ?? ''}`.trim()),
    );
    expect(named.length).toBeGreaterThan(0);
    for (const value of named) expect(value).toMatch(/^user-content-\S+( user-content-\S+)?$/);
    // No field of the paste's own: a text field is not Markdown.
    expect(await body.locator('input, form').count()).toBe(0);

    // The page still works: switched to Chinese, it renders again, and its raw link (src/lib/backend-url.ts) points
    // at the server. A clobbered __CLIPSTASH_CONFIG__ made that render throw.
    await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
    await page.getByRole('button', { name: '复制内容' }).waitFor();
    expect(await page.getByRole('link', { name: '原始内容' }).getAttribute('href')).toBe(`${suite.server.url}/api/raw/${slug}`);
    await page.getByRole('region', { name: '分享内容' }).getByRole('heading', { name: 'Clobbering' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it.each(SANITIZERS)('a paste holding a marquee opens without crashing the tab, and without the marquee, with $sanitizer', async ({ withoutSetHtml }) => {
    const slug = `marquee-${withoutSetHtml ? 'purify' : 'browser'}`;
    await adminPaste({
      slug,
      content: '# Marquee\n\n<marquee onstart=alert(1)>x</marquee>\n\n<blink>blink</blink> <custom-element>custom</custom-element>\n\nAfter it.',
    });
    const { page, context, crashes } = await visitor(withoutSetHtml);
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => void dialog.dismiss().then(() => dialogs.push(dialog.message())));
    await page.goto(`${suite.server.url}/paste/${slug}`);
    const body = page.getByRole('region', { name: 'Shared content' });
    await body.getByText('After it.').waitFor();
    // Laid out and painted twice with the paste in it: a tab that crashes on it has by then (and this call fails).
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(crashes).toEqual([]);
    expect(await body.evaluate((root) => root.querySelectorAll('marquee, blink, custom-element').length)).toBe(0);
    // The page is alive: it answers, and a reload shows the paste again.
    await page.reload();
    await body.getByText('After it.').waitFor();
    expect(crashes).toEqual([]);
    expect(dialogs).toEqual([]);
    // As in the XSS corpus: Chromium may report the handler that either sanitiser drops as blocked by the CSP.
    expect(takeCspViolations().filter((violation) => !violation.includes('Executing inline event handler'))).toEqual([]);
    await context.close();
  });

  it('both sanitisers give the same nodes, and keep only what a paste may hold', async () => {
    const corpus = [
      '# Alike',
      '<div class="fixed inset-0" data-x="1" aria-hidden="true" style="color:red" role="button" title="t" lang="fr" dir="rtl">attrs</div>',
      '<!-- a comment -->',
      '<center>centred</center> <font color="red">font</font> <marquee>moving</marquee> <custom-element>gone</custom-element> <x-y>gone too</x-y>',
      '<section><h2 id="raw">Raw heading</h2><h2 id="user-content-done">Already prefixed</h2></section>',
      '<a href="ftp://example.invalid/f">ftp</a> <a href="data:text/html,x">data</a> <a href="mailto:a@example.invalid">mail</a> <a href="/relative">relative</a> <a href="#raw">in page</a> <a href="https://example.invalid" target="_self" rel="opener">out</a>',
      '<img src="data:image/png;base64,iVBORw0KGgo=" alt="data image"> <img src="data:text/html,x" alt="data html">',
      '<input type="text" name="q" value="typed"> <input type="checkbox" checked> <label><input type="checkbox"> labelled</label>',
      '- [x] done *well*\n- [ ] todo\n  - [ ] nested',
      '| a | b |\n|:-:|--:|\n| 1 | 2 |',
      '<details open><summary>more</summary>inside</details>',
      '<table><tr><td colspan="2" onclick="x()">cell</td></tr></table>',
      '```\nplain <b>code</b>\n```',
      '<ol start="3" reversed><li value="7">seven</li></ol>',
      '<video src="x.mp4">video text</video> <audio>audio text</audio> <button>button text</button> <select><option>opt</option></select> <textarea>ta</textarea>',
      '<code class="language-js hljs evil">code</code>',
      '<svg><a href="#raw">svg link</a></svg> <math><mi>x</mi></math> <template><b>t</b></template> <style>p{}</style> <script>1</script>',
    ].join('\n\n');
    await adminPaste({ slug: 'alike', content: corpus });
    const rendered: string[] = [];
    for (const { withoutSetHtml } of SANITIZERS) {
      const { page, context, crashes } = await visitor(withoutSetHtml);
      await page.goto(`${suite.server.url}/paste/alike`);
      const body = page.getByRole('region', { name: 'Shared content' });
      await body.getByRole('heading', { name: 'Alike' }).waitFor();
      rendered.push(await body.evaluate((root) => root.innerHTML));
      expect(crashes).toEqual([]);
      await context.close();
    }
    const [browsers, purified] = rendered;
    expect(purified).toBe(browsers);
    // As in the XSS corpus: Chromium may report the handler that either sanitiser drops as blocked by the CSP.
    expect(takeCspViolations().filter((violation) => !violation.includes('Executing inline event handler'))).toEqual([]);

    const html = browsers ?? '';
    for (const kept of ['centred', 'font', 'moving', 'attrs', 'inside', 'cell', 'seven', 'plain &lt;b&gt;code&lt;/b&gt;', 'labelled']) expect(html).toContain(kept);
    for (const dropped of ['gone', 'video text', 'audio text', 'button text', 'opt', '>ta<', 'svg link', '<b>t</b>', 'p{}', 'comment']) expect(html).not.toContain(dropped);
    for (const element of ['center', 'font', 'marquee', 'custom-element', 'x-y', 'section', 'label', 'video', 'audio', 'button', 'select', 'textarea', 'svg', 'math', 'template', 'style', 'script']) {
      expect(html).not.toContain(`<${element}`);
    }
    for (const attribute of ['class="fixed', 'data-x', 'aria-hidden', 'style=', 'role=', 'onclick', 'ftp:', 'data:text', 'target="_self"', 'rel="opener"', 'hljs', 'evil', 'type="text"', 'value="typed"']) {
      expect(html).not.toContain(attribute);
    }
    for (const expected of [
      '<div title="t" lang="fr" dir="rtl">attrs</div>',
      '<h2 id="user-content-raw">Raw heading</h2>',
      '<h2 id="user-content-done">Already prefixed</h2>',
      '<a href="#raw">in page</a>',
      '<a href="mailto:a@example.invalid" target="_blank" rel="noopener noreferrer nofollow">mail</a>',
      '<a href="/relative" target="_blank" rel="noopener noreferrer nofollow">relative</a>',
      '<a>data</a>',
      '<img src="data:image/png;base64,iVBORw0KGgo=" alt="data image">',
      '<img alt="data html">',
      '<input checked="" disabled="" type="checkbox" aria-label="done well">',
      '<input disabled="" type="checkbox" aria-label="todo">',
      '<input disabled="" type="checkbox" aria-label="nested">',
      '<td colspan="2">cell</td>',
      '<th align="center">a</th>',
      '<details open=""><summary>more</summary>inside</details>',
      '<ol start="3" reversed=""><li value="7">seven</li></ol>',
      '<code class="language-js">code</code>',
    ]) {
      expect(html).toContain(expected);
    }
    // A checkbox with no words beside it says its state as a character.
    expect(html).toMatch(/☑\s+<input type="checkbox" disabled="" aria-label="labelled">/);
  });

  it("a task list's checkboxes have names: axe finds nothing serious on the paste", async () => {
    await adminPaste({ slug: 'task-list', content: '# Tasks\n\n- [x] done\n- [ ] todo\n' });
    const { page, context } = await newPerson(suite.browser);
    await page.goto(`${suite.server.url}/paste/task-list`);
    const body = page.getByRole('region', { name: 'Shared content' });
    await body.getByRole('heading', { name: 'Tasks' }).waitFor();
    expect(await body.getByRole('checkbox', { name: 'done', checked: true, disabled: true }).count()).toBe(1);
    expect(await body.getByRole('checkbox', { name: 'todo', checked: false, disabled: true }).count()).toBe(1);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await context.close();
  });

  it("a link to a heading of the paste scrolls to it, and the address shows the heading's own name", async () => {
    const filler = 'A paragraph that takes room.\n\n'.repeat(80);
    await adminPaste({
      slug: 'anchors',
      content: `# Contents\n\n[To the end](#the-end) and [to the raw anchor](#raw-anchor)\n\n${filler}<h2 id="raw-anchor">Raw anchor</h2>\n\n${filler}## The end\n\nLast words.\n`,
    });
    const { page, context } = await newPerson(suite.browser, { viewport: { width: 1000, height: 700 } });
    await page.goto(`${suite.server.url}/paste/anchors`);
    const body = page.getByRole('region', { name: 'Shared content' });
    await body.getByRole('heading', { name: 'Contents' }).waitFor();
    expect(await body.getByRole('heading', { name: 'The end' }).getAttribute('id')).toBe('user-content-the-end');
    expect(await body.getByRole('heading', { name: 'Raw anchor' }).getAttribute('id')).toBe('user-content-raw-anchor');
    const inView = (name: string) =>
      body.getByRole('heading', { name }).evaluate((heading) => {
        const { top, bottom } = heading.getBoundingClientRect();
        return top >= 0 && bottom <= window.innerHeight;
      });
    expect(await inView('The end')).toBe(false);

    await body.getByRole('link', { name: 'To the end' }).click();
    await expect.poll(() => inView('The end'), { timeout: 10_000 }).toBe(true);
    expect(new URL(page.url()).hash).toBe('#the-end');
    expect(context.pages()).toHaveLength(1);

    await page.evaluate(() => window.scrollTo(0, 0));
    await body.getByRole('link', { name: 'to the raw anchor' }).click();
    await expect.poll(() => inView('Raw anchor'), { timeout: 10_000 }).toBe(true);
    expect(new URL(page.url()).hash).toBe('#raw-anchor');

    // Back goes to the earlier heading; an address with a heading's name opens the paste there.
    await page.goBack();
    await expect.poll(() => inView('The end'), { timeout: 10_000 }).toBe(true);
    const reader = await newPerson(suite.browser, { viewport: { width: 1000, height: 700 } });
    await reader.page.goto(`${suite.server.url}/paste/anchors#the-end`);
    await reader.page.getByRole('region', { name: 'Shared content' }).getByRole('heading', { name: 'The end' }).waitFor();
    await expect
      .poll(() =>
        reader.page
          .getByRole('heading', { name: 'The end' })
          .evaluate((heading) => heading.getBoundingClientRect().top >= 0 && heading.getBoundingClientRect().bottom <= window.innerHeight),
        { timeout: 10_000 },
      )
      .toBe(true);
    await Promise.all([context.close(), reader.context.close()]);
  });
});

describe('an API key with text permission', () => {
  it('shares from the home page, edits its paste from the view, and lists only its own pastes', async () => {
    const admin = await newPerson(suite.browser);
    await loginAsAdmin(admin.page, suite.server.url);
    await apiPaste(admin.page, { content: 'the admin paste', slug: 'admins-own' });
    const token = await admin.page.evaluate(() => localStorage.getItem('admin_token'));
    const created = await admin.page.request.post(`${suite.server.url}/api/admin/api-keys`, {
      data: { name: 'writer', text_permission: true, custom_key: 'writer-key-123' },
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(created.status()).toBe(201);

    const { page, context } = await newPerson(suite.browser);
    await page.goto(`${suite.server.url}/admin`);
    await page.getByRole('tab', { name: 'API key' }).click();
    await page.getByRole('textbox', { name: 'API key' }).fill('writer-key-123');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'User panel' }).waitFor();

    await page.getByRole('link', { name: 'Home' }).click();
    await typeInEditor(page, 'Written with a key');
    await page.getByLabel('Link suffix').fill('key-paste');
    await page.getByRole('button', { name: 'Create share' }).click();
    await page.getByRole('textbox', { name: 'Share link' }).waitFor();

    await page.goto(`${suite.server.url}/paste/key-paste`);
    await page.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit share' });
    await edit.getByLabel('Content').fill('Edited by its key');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Edited by its key').waitFor();

    await page.goto(`${suite.server.url}/admin/text-management`);
    await page.locator('tr[data-slug="key-paste"]').waitFor();
    expect(await page.locator('tbody tr').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Clear expired' }).count()).toBe(0);

    // Someone else's paste offers no editing to this key.
    await page.goto(`${suite.server.url}/paste/admins-own`);
    await page.getByText('the admin paste').waitFor();
    expect(await page.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    await Promise.all([admin.context.close(), context.close()]);
  });
});

describe('text management', () => {
  it('lists pastes with pagination, deletes a selection with counts, and clears expired ones', async () => {
    const { page, context } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    const created = [];
    for (let i = 0; i < 12; i++) created.push(await apiPaste(page, { content: `paste number ${i}`, slug: `tm-${i}` }));
    await apiPaste(page, { content: 'short lived', slug: 'tm-used', maxViews: 1 });
    await page.request.get(`${suite.server.url}/api/paste/tm-used`);

    await page.goto(`${suite.server.url}/admin/text-management`);
    await page.locator('tr[data-slug="tm-used"]').getByText('Used up').waitFor();
    expect(await page.locator('tbody tr').count()).toBe(10);
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByText(/Page 2 of \d+/).waitFor();
    // Page 2 shows the older shares, not page 1's rows again.
    await page.locator('tr[data-slug="tm-0"]').waitFor();
    await page.locator('tr[data-slug="tm-11"]').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Previous page' }).click();
    await page.locator('tr[data-slug="tm-11"]').waitFor();

    await page.getByLabel('Select tm-11').check();
    // One selected is one share, in the title and the description.
    await page.getByRole('button', { name: 'Delete selected (1)' }).click();
    const deleteOne = page.getByRole('alertdialog', { name: 'Delete 1 share?' });
    await deleteOne.getByText('Its link stops working at once.').waitFor();
    await deleteOne.getByRole('button', { name: 'Cancel' }).click();
    await page.getByLabel('Select tm-10').check();
    await page.getByRole('button', { name: 'Delete selected (2)' }).click();
    await page.getByRole('alertdialog', { name: 'Delete 2 shares?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('2 deleted').first().waitFor();
    await page.locator('tr[data-slug="tm-11"]').waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Clear expired' }).click();
    await page.getByRole('alertdialog', { name: 'Clear expired shares?' }).getByRole('button', { name: 'Clear' }).click();
    // tm-used, plus the used-up share of the first test when the whole file runs.
    await page.getByText(/^[12] expired or used-up shares removed$/).first().waitFor();
    await page.locator('tr[data-slug="tm-used"]').waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Edit tm-9' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit share' });
    await edit.getByLabel('Content').fill('changed content');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Share updated').first().waitFor();
    await page.locator('tr[data-slug="tm-9"]').getByText('changed content').waitFor();
    expect(created.length).toBe(12);
    await context.close();
  });
});
