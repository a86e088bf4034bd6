import { describe, expect, it } from 'vitest';
import { loginAsAdmin, newPerson } from './harness';
import { useSuite } from './suite';

const suite = useSuite();

describe('the admin panel on a phone (360 px)', () => {
  it('keeps the module menu to one strip, so the module itself is on the first screen', async () => {
    const { page, context, errors } = await newPerson(suite.browser, { viewport: { width: 360, height: 640 } });
    await loginAsAdmin(page, suite.server.url);
    for (const [module, title] of [
      ['dashboard', 'Dashboard'],
      ['key-management', 'Key management'],
      ['settings', 'System settings'],
    ]) {
      await page.goto(`${suite.server.url}/admin/${module}`);
      const heading = page.getByRole('heading', { name: title, exact: true });
      await heading.waitFor();
      const box = await heading.boundingBox();
      expect(box, title).not.toBeNull();
      // Its title and the start of its content sit in the top half of the first screen.
      expect(box?.y ?? 640).toBeLessThan(320);

      const menu = page.getByRole('navigation', { name: 'Admin panel' });
      expect((await menu.boundingBox())?.height ?? 999).toBeLessThan(60);
      // The current module is scrolled into the strip, and the page itself never scrolls sideways.
      const current = menu.getByRole('link', { name: title });
      const link = await current.boundingBox();
      expect(link?.x ?? -1).toBeGreaterThanOrEqual(0);
      expect((link?.x ?? 999) + (link?.width ?? 0)).toBeLessThanOrEqual(360);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    }
    // The strip still reaches every module.
    await page.getByRole('navigation', { name: 'Admin panel' }).getByRole('link', { name: 'Text management' }).click();
    await page.getByRole('heading', { name: 'Text management', exact: true }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
