import { describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, loginAsAdmin, newPerson } from './harness';
import { useSuite } from './suite';

const suite = useSuite();

describe('mount management', () => {
  it('an admin creates a mount with the form checking each field first, switches it off and on, edits and deletes it', async () => {
    const { page, context, errors } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    await page.getByRole('link', { name: 'Mount management' }).click();
    const builtin = page.locator('tr[data-mount-path="/local"]');
    await builtin.waitFor();
    expect(await builtin.textContent()).toContain('Local storage');

    await page.getByRole('button', { name: 'Create mount point' }).first().click();
    const form = page.getByRole('dialog', { name: 'Create mount point' });
    await form.getByLabel('Name').fill('P');
    await form.getByLabel('Mount path').fill('photos/');
    await form.getByLabel('Sort order').fill('-1');
    await form.getByRole('button', { name: 'Create mount point' }).click();
    await form.getByText('The name must be 2 to 50 characters long').waitFor();
    await form.getByText('Start with /, no trailing /, no empty, . or .. parts (for example /photos/2024)').waitFor();
    await form.getByText('Enter a whole number, 0 or more').waitFor();
    await form.getByLabel('Mount path').fill('/api/photos');
    await form.getByRole('button', { name: 'Create mount point' }).click();
    await form.getByText('Paths under /api, /dav and /admin are reserved').waitFor();
    // A path another mount has: the server's 409 shows in the form.
    await form.getByLabel('Name').fill('Photos');
    await form.getByLabel('Mount path').fill('/local');
    await form.getByLabel('Sort order').fill('1');
    await form.getByRole('button', { name: 'Create mount point' }).click();
    await form.getByRole('alert').filter({ hasText: 'A mount point already uses the path /local' }).waitFor();
    await form.getByLabel('Mount path').fill('/photos');
    await form.getByLabel('Remark').fill('family pictures');
    await form.getByLabel('Cache TTL (seconds)').fill('60');
    await form.getByRole('button', { name: 'Create mount point' }).click();
    await page.getByText('Mount point created').first().waitFor();
    const row = page.locator('tr[data-mount-path="/photos"]');
    await row.waitFor();
    expect(await row.textContent()).toContain('family pictures');
    expect(await row.textContent()).toContain('60 s');

    // The new mount is browsable through the API at once.
    const authorization = `Bearer ${await page.evaluate(() => localStorage.getItem('admin_token'))}`;
    const root = await page.request.get(`${suite.server.url}/api/admin/fs/list?path=/`, { headers: { Authorization: authorization } });
    expect(((await root.json()) as { data: { items: { path: string }[] } }).data.items.map((item) => item.path)).toContain('/photos/');

    // Switch off, then on again.
    await row.getByRole('button', { name: 'Deactivate Photos' }).click();
    await page.getByText('Mount point Photos deactivated').first().waitFor();
    await row.getByRole('button', { name: 'Activate Photos' }).waitFor();
    await row.getByRole('button', { name: 'Activate Photos' }).click();
    await row.getByRole('button', { name: 'Deactivate Photos' }).waitFor();

    // Edit with the keyboard only.
    await row.getByRole('button', { name: 'Edit mount point Photos' }).focus();
    await page.keyboard.press('Enter');
    const edit = page.getByRole('dialog', { name: 'Edit mount point' });
    await expect(edit.getByLabel('Mount path').inputValue()).resolves.toBe('/photos');
    await edit.getByLabel('Name').fill('Pictures');
    await edit.getByLabel('Name').press('Enter');
    await page.getByText('Mount point updated').first().waitFor();
    await page.locator('tr[data-mount-path="/photos"]', { hasText: 'Pictures' }).waitFor();

    await page.locator('tr[data-mount-path="/photos"]').getByRole('button', { name: 'Delete mount point Pictures' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete mount point?' });
    await confirm.getByText('"Pictures" disappears from the explorer and WebDAV. The files in its storage stay.').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.locator('tr[data-mount-path="/photos"]').waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('an admin finds the WebDAV address in mount management, copies it, and a WebDAV client lists the mounts there', async () => {
    const { page, context, errors } = await newPerson(suite.browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.url });
    await loginAsAdmin(page, suite.server.url);
    await page.getByRole('link', { name: 'Mount management' }).click();
    const panel = page.getByRole('region', { name: 'WebDAV' });
    await panel.getByText('Sign in with the admin name and password').waitFor();
    const address = (await panel.getByTestId('webdav-address').textContent()) ?? '';
    expect(address).toBe(`${suite.server.url}/dav/`);
    await panel.getByRole('button', { name: 'Copy WebDAV address' }).click();
    await page.getByText('WebDAV address copied').first().waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);
    // What a desktop client does with it: PROPFIND with the admin's credentials.
    const authorization = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;
    const listing = await page.request.fetch(address, { method: 'PROPFIND', headers: { authorization, depth: '1' } });
    expect(listing.status()).toBe(207);
    expect(await listing.text()).toContain('<D:href>/dav/local/</D:href>');
    expect((await page.request.fetch(address, { method: 'PROPFIND', headers: { depth: '1' } })).status()).toBe(401);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('in Chinese at 360 px: the module reads in zh-CN and a mount is created from a phone', async () => {
    const { page, context, errors } = await newPerson(suite.browser, { locale: 'zh-CN', viewport: { width: 360, height: 740 } });
    await page.goto(`${suite.server.url}/admin`);
    await page.getByLabel('用户名').fill('admin');
    await page.getByLabel('密码').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: '登录' }).click();
    await page.getByRole('heading', { name: '管理面板' }).waitFor();
    await page.goto(`${suite.server.url}/admin/mount-management`);
    await page.getByRole('heading', { name: '挂载管理' }).waitFor();
    await page.getByRole('button', { name: '创建挂载点' }).first().click();
    const form = page.getByRole('dialog', { name: '创建挂载点' });
    await form.getByRole('button', { name: '创建挂载点' }).click();
    await form.getByText('请输入挂载点名称').waitFor();
    await form.getByLabel('名称').fill('手机挂载');
    await form.getByLabel('挂载路径').fill('/phone');
    await form.getByRole('button', { name: '创建挂载点' }).click();
    await page.getByText('挂载点已创建').first().waitFor();
    const row = page.locator('tr[data-mount-path="/phone"]');
    await row.waitFor();
    expect(await row.textContent()).toContain('手机挂载');
    const box = await row.boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(360);
    await row.getByRole('button', { name: '删除挂载点 手机挂载' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: '删除' }).click();
    await row.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await context.close();
  });
});
