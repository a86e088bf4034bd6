import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { a11yInThemes, ADMIN_PASSWORD, ADMIN_USERNAME, adminToken, newPerson, screenshot, SCREENSHOTS_WANTED, themesChecked } from './harness';
import { useSuite } from './suite';

const suite = useSuite();

/** Where the screens of this file are kept for a person to look at (not compared: axe and the layout are). */

async function typeInEditor(page: Page, text: string) {
  await page.locator('.cm-content').click();
  await page.keyboard.insertText(text);
}

/** The editor's text, a line per `.cm-line` (innerText would count an empty line's <br> twice), without the placeholder. */
const editorText = (page: Page) =>
  page.locator('.cm-content').evaluate((content) =>
    [...content.querySelectorAll('.cm-line')]
      .map((line) => [...line.childNodes].filter((node) => !(node instanceof Element && node.matches('.cm-placeholder'))).map((node) => node.textContent).join(''))
      .join('\n'),
  );

async function signInHere(page: Page) {
  await page.getByLabel('Username').fill(ADMIN_USERNAME);
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** The two boxes share some area. */
async function overlap(a: Locator, b: Locator): Promise<boolean> {
  const [one, two] = await Promise.all([a.boundingBox(), b.boundingBox()]);
  if (!one || !two) return false;
  return one.x < two.x + two.width && two.x < one.x + one.width && one.y < two.y + two.height && two.y < one.y + one.height;
}

const horizontalOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('the home page, signed out', () => {
  it('says before any typing that sharing needs a login, and the login brings the person back to the editor with the text', async () => {
    const { page, context, errors } = await newPerson(suite.browser);
    await page.goto(`${suite.server.url}/`);
    const need = page.getByText('Creating a share needs an admin login or an API key with text permission.');
    await need.waitFor();
    // Above the editor, on the first screen: seen before the first word is typed.
    const [needBox, editorBox] = await Promise.all([need.boundingBox(), page.locator('.cm-content').boundingBox()]);
    expect(needBox && editorBox && needBox.y + needBox.height).toBeLessThanOrEqual(editorBox?.y ?? 0);
    expect(needBox && needBox.y + needBox.height).toBeLessThanOrEqual(page.viewportSize()?.height ?? 0);

    // Typed a moment ago (no 30 s autosave yet), then off to log in.
    await typeInEditor(page, 'Meeting notes\n\nBring the slides.');
    await page.getByRole('main').getByRole('link', { name: 'Log in' }).click();
    await page.waitForURL(/\/admin\?next=/);
    await page.getByText('After logging in you go back to where you were, with your work.').waitFor();
    await signInHere(page);
    await page.waitForURL(`${suite.server.url}/`);
    await page.getByRole('button', { name: 'Create share' }).waitFor();
    await expect.poll(() => editorText(page), { timeout: 10_000 }).toBe('Meeting notes\n\nBring the slides.');
    // Put back, not offered: nothing to restore by hand.
    expect(await page.getByRole('button', { name: 'Restore draft' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('from the upload page, the login goes back to the upload page, whose forms load only then', async () => {
    const { page, context } = await newPerson(suite.browser);
    const scripts: string[] = [];
    page.on('request', (request) => void (request.resourceType() === 'script' && scripts.push(new URL(request.url()).pathname)));
    const workspaceCode = () => scripts.filter((path) => /\/(UploadWorkspace|TaskManagerPanel|TaskRow)-[\w-]+\.js$/.test(path));
    await page.goto(`${suite.server.url}/upload`, { waitUntil: 'networkidle' });
    await page.getByRole('heading', { name: 'Log in to upload' }).waitFor();
    expect(workspaceCode()).toEqual([]);
    await page.getByRole('main').getByRole('link', { name: 'Log in' }).click();
    await signInHere(page);
    await page.waitForURL(`${suite.server.url}/upload`);
    await page.getByTestId('drop-zone').waitFor();
    await page.getByRole('button', { name: /^Tasks/ }).waitFor();
    expect(workspaceCode()).toContainEqual(expect.stringMatching(/UploadWorkspace-/));
    await context.close();
  });

  it('a crafted login link does not send the person to another site', async () => {
    const { page, context } = await newPerson(suite.browser);
    await page.goto(`${suite.server.url}/admin?next=${encodeURIComponent('//example.com/')}`);
    await signInHere(page);
    await page.getByRole('heading', { name: 'Admin panel' }).waitFor();
    expect(new URL(page.url()).origin).toBe(suite.server.url);
    await context.close();
  });
});

describe('the home page, signed in', () => {
  it('shows which mode is on, draws a heading without an underline, and makes selects as tall as inputs', async () => {
    const { page, context } = await newPerson(suite.browser);
    await page.goto(`${suite.server.url}/`);
    await page.evaluate((token) => localStorage.setItem('admin_token', token), await adminToken(suite.server.url));
    await page.reload();
    await page.getByRole('button', { name: 'Create share' }).waitFor();

    const markdown = page.getByRole('button', { name: 'Markdown', exact: true });
    const plain = page.getByRole('button', { name: 'Plain text', exact: true });
    const preview = page.getByRole('button', { name: 'Preview', exact: true });
    expect([await markdown.getAttribute('aria-pressed'), await plain.getAttribute('aria-pressed'), await preview.getAttribute('aria-pressed')]).toEqual([
      'true',
      'false',
      'true',
    ]);
    const background = (button: Locator) => button.evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(await background(markdown)).not.toBe(await background(plain));

    await typeInEditor(page, '# A heading\n\nand [a link](https://example.com)');
    const heading = page.locator('.cm-line').first().locator('span').first();
    await expect.poll(() => heading.evaluate((element) => getComputedStyle(element).fontWeight), { timeout: 10_000 }).toBe('700');
    const headingStyle = await heading.evaluate((element) => {
      const style = getComputedStyle(element);
      const body = getComputedStyle(element.closest('.cm-content') ?? document.body);
      return { decoration: style.textDecorationLine, larger: parseFloat(style.fontSize) > parseFloat(body.fontSize) };
    });
    expect(headingStyle).toEqual({ decoration: 'none', larger: true });

    await plain.click();
    expect([await markdown.getAttribute('aria-pressed'), await plain.getAttribute('aria-pressed')]).toEqual(['false', 'true']);
    expect(await preview.count()).toBe(0);

    const [select, input] = await Promise.all([page.getByLabel('Expires after').boundingBox(), page.getByLabel('Link suffix').boundingBox()]);
    expect(Math.abs((select?.height ?? 0) - (input?.height ?? 1))).toBeLessThan(0.5);
    await context.close();
  });

  it('after creating a share: the panel is in view with the focus, toasts keep off "Copy link", the QR code is seen, and the same text is not shared again quietly', async () => {
    const { page, context } = await newPerson(suite.browser, { viewport: { width: 1280, height: 720 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.url });
    await page.goto(`${suite.server.url}/`);
    await page.evaluate((token) => localStorage.setItem('admin_token', token), await adminToken(suite.server.url));
    await page.reload();
    await typeInEditor(page, 'Shared once');
    await page.getByRole('button', { name: 'Create share' }).click();

    const created = page.getByRole('heading', { name: 'Share created' });
    await created.waitFor();
    await expect.poll(() => created.evaluate((element) => element === document.activeElement), { timeout: 10_000 }).toBe(true);
    const copy = page.getByRole('button', { name: 'Copy link' });
    await copy.waitFor();
    const copyBox = await copy.boundingBox();
    expect(copyBox && copyBox.y + copyBox.height).toBeLessThanOrEqual(720);

    // The button at the very bottom of the window, where the toasts would stack: they go elsewhere.
    await copy.evaluate((element) => window.scrollBy(0, element.getBoundingClientRect().bottom - window.innerHeight + 8));
    await copy.click();
    const toast = page.locator('[data-tone]').filter({ hasText: 'Link copied' });
    await toast.waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/\/paste\/[\w-]+$/);
    for (const shown of await page.locator('[data-tone]').all()) expect(await overlap(shown, copy)).toBe(false);

    await page.getByRole('button', { name: 'QR code' }).click();
    const qr = page.getByRole('img', { name: 'QR code of the share link' });
    await qr.waitFor();
    await expect
      .poll(() => qr.evaluate((element) => element.getBoundingClientRect().bottom <= window.innerHeight && element.getBoundingClientRect().top >= 0), {
        timeout: 10_000,
      })
      .toBe(true);

    // The same text again: said, and the button says what it would do.
    await page.getByText('This text is shared already: its link is above. Creating again makes a second link.').waitFor();
    await page.getByRole('button', { name: 'Create another link' }).waitFor();
    await page.getByRole('button', { name: 'New paste' }).click();
    expect(await editorText(page)).toBe('');
    expect(await created.count()).toBe(0);
    await page.getByRole('button', { name: 'Create share' }).waitFor();
    await context.close();
  });
});

describe('the home page in both languages, themes and widths', () => {
  const texts = {
    'en-US': { create: 'Create share', created: 'Share created', login: 'Log in' },
    'zh-CN': { create: '创建分享', created: '分享已创建', login: '登录' },
  } as const;

  for (const locale of ['en-US', 'zh-CN'] as const) {
    for (const width of [1280, 360]) {
      it(`${locale} at ${width} px: signed out and after a share, axe-clean in ${themesChecked(locale, width).join(' and ')}, no sideways scrolling`, async () => {
        const { page, context, errors } = await newPerson(suite.browser, { locale, viewport: { width, height: 800 }, reducedMotion: 'reduce' });
        const shoot = async (name: string) => {
          expect(await horizontalOverflow(page), `${name} scrolls sideways`).toBeLessThanOrEqual(0);
          const violations = await a11yInThemes(page, themesChecked(locale, width), `${locale} ${width}px ${name}`);
          if (SCREENSHOTS_WANTED) {
            for (const colorScheme of ['light', 'dark'] as const) {
              await page.emulateMedia({ colorScheme });
              await screenshot(page, 'home', `${name}-${locale}-${width}-${colorScheme}`);
            }
          }
          return violations;
        };

        await page.goto(`${suite.server.url}/`);
        // The header's link (in its menu at 360 px), or the visitor's notice that offers the same words.
        await page.getByRole('link', { name: texts[locale].login, exact: true }).first().waitFor();
        await typeInEditor(page, '# Notes\n\n- one\n- **two**\n');
        const violations = await shoot('signed-out');

        await page.evaluate((token) => localStorage.setItem('admin_token', token), await adminToken(suite.server.url));
        await page.reload();
        await page.getByRole('button', { name: texts[locale].create }).waitFor();
        await typeInEditor(page, `# Notes ${locale} ${width}\n\nA [link](https://example.com).`);
        await page.getByRole('button', { name: texts[locale].create }).click();
        await page.getByRole('heading', { name: texts[locale].created }).waitFor();
        await page.getByRole('textbox', { name: /./ }).first().waitFor();
        violations.push(...(await shoot('created')));
        expect(violations).toEqual([]);
        expect(errors).toEqual([]);
        await context.close();
      });
    }
  }
});
