import { describe, expect, it } from 'vitest';
import { loginAsAdmin, newPerson } from './harness';
import { useSuite } from './suite';

const suite = useSuite();

describe('language', () => {
  it('follows the browser, switches, and survives a reload', async () => {
    const { page, context } = await newPerson(suite.browser, { locale: 'zh-CN' });
    await page.goto(`${suite.server.url}/`);
    await page.getByRole('link', { name: '上传' }).waitFor();
    expect(await page.title()).toBe('在线剪贴板 - Clipstash');
    expect(await page.getAttribute('html', 'lang')).toBe('zh-CN');

    await page.getByRole('combobox', { name: '语言' }).selectOption('en-US');
    await page.getByRole('link', { name: 'Upload' }).waitFor();
    expect(await page.title()).toBe('Online clipboard - Clipstash');

    await page.reload();
    await page.getByRole('link', { name: 'Upload' }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('en-US');
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('en-US');
    await context.close();
  });

  it('sends the language to the server, whose messages come back translated', async () => {
    const { page, context } = await newPerson(suite.browser, { locale: 'zh-CN' });
    await page.goto(`${suite.server.url}/admin`);
    await page.getByLabel('用户名').fill('admin');
    await page.getByLabel('密码').fill('wrong-password');
    await page.getByRole('button', { name: '登录' }).click();
    await page.getByText('用户名或密码错误').waitFor();
    await context.close();
  });

  it('names the built-in storage in the language of the page', async () => {
    const { page, context } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    await page.goto(`${suite.server.url}/upload`);
    await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
    const storage = page.getByRole('combobox', { name: '存储' });
    // The switch loads the Chinese catalog (two files) first: on a busy machine that takes longer than a poll waits.
    await storage.waitFor();
    await expect.poll(() => storage.locator('option').first().textContent()).toBe('本地存储（默认）');
    await context.close();
  });
});

describe('theme', () => {
  it('cycles auto → light → dark → auto, follows the system in auto, and survives a reload', async () => {
    const { page, context } = await newPerson(suite.browser, { colorScheme: 'dark' });
    await page.goto(`${suite.server.url}/`);
    const toggle = page.getByRole('button', { name: /^Theme:/ });
    const theme = () => page.getAttribute('html', 'data-theme');
    await expect(toggle.getAttribute('data-theme-mode')).resolves.toBe('auto');
    expect(await theme()).toBe('dark');

    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');

    await toggle.click();
    await expect(toggle.getAttribute('data-theme-mode')).resolves.toBe('light');
    await toggle.click();
    await expect(toggle.getAttribute('data-theme-mode')).resolves.toBe('dark');
    expect(await theme()).toBe('dark');

    await page.reload();
    await expect(page.getByRole('button', { name: /^Theme:/ }).getAttribute('data-theme-mode')).resolves.toBe('dark');
    expect(await theme()).toBe('dark');
    expect(await page.evaluate(() => localStorage.getItem('themeMode'))).toBe('dark');

    await page.getByRole('button', { name: /^Theme:/ }).click();
    await expect(page.getByRole('button', { name: /^Theme:/ }).getAttribute('data-theme-mode')).resolves.toBe('auto');
    expect(await theme()).toBe('light');
    await context.close();
  });
});

describe('navigation', () => {
  it('redirects unknown paths home and titles each route', async () => {
    const { page, context } = await newPerson(suite.browser);
    await page.goto(`${suite.server.url}/no/such/page`);
    await page.waitForURL(`${suite.server.url}/`);
    await page.getByRole('link', { name: 'Upload' }).click();
    await page.waitForURL(`${suite.server.url}/upload`);
    expect(await page.title()).toBe('File upload - Clipstash');
    await page.goto(`${suite.server.url}/mount-explorer/local/docs`);
    await page.getByRole('heading', { name: 'Mount explorer' }).waitFor();
    // The title follows the render, which may come after the load event (sooner still with cached code).
    await expect.poll(() => page.title()).toBe('Mount explorer - Clipstash');
    await context.close();
  });

  it('has a working mobile menu', async () => {
    const { page, context } = await newPerson(suite.browser, { viewport: { width: 375, height: 740 } });
    await page.goto(`${suite.server.url}/`);
    const menuButton = page.getByRole('button', { name: 'Open menu' });
    await expect(page.getByRole('link', { name: 'Upload' }).isVisible()).resolves.toBe(false);
    await menuButton.click();
    await page.getByRole('link', { name: 'Upload' }).click();
    await page.waitForURL(`${suite.server.url}/upload`);
    await expect(page.getByRole('button', { name: 'Open menu' }).getAttribute('aria-expanded')).resolves.toBe('false');
    await context.close();
  });

  it('closes the mobile menu on Escape, on a tap outside it, and on a link to the current page', async () => {
    const { page, context } = await newPerson(suite.browser, { viewport: { width: 390, height: 844 } });
    await page.goto(`${suite.server.url}/`);
    const toggle = page.locator('button[aria-controls="main-navigation"]');
    const upload = page.getByRole('link', { name: 'Upload' });
    const expanded = () => toggle.getAttribute('aria-expanded');

    await toggle.click();
    await upload.waitFor();
    await page.keyboard.press('Escape');
    await upload.waitFor({ state: 'hidden' });
    expect(await expanded()).toBe('false');
    expect(await toggle.evaluate((button) => button === document.activeElement)).toBe(true);

    await toggle.click();
    await upload.waitFor();
    await page.mouse.click(195, 700); // the page below the menu
    await upload.waitFor({ state: 'hidden' });
    expect(await expanded()).toBe('false');

    await toggle.click();
    await page.getByRole('link', { name: 'Home', exact: true }).click(); // already there: the location does not change
    await upload.waitFor({ state: 'hidden' });
    expect(await expanded()).toBe('false');
    await context.close();
  });
});
