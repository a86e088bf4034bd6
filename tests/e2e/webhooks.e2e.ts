import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, verifySignature } from '../fixtures/webhook-receiver';
import { loginAsAdmin, newPerson } from './harness';
import { useSuite } from './suite';

// The receiver runs on 127.0.0.1: the server may post there only with ALLOW_PRIVATE_URLS, as URL uploads' tests do.
const suite = useSuite({ ALLOW_PRIVATE_URLS: '1' });
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.stop());

describe('webhooks', () => {
  it('the admin creates a webhook, sends the test event and sees it in the log; a paste shared then arrives signed', async () => {
    const admin = await newPerson(suite.browser);
    await loginAsAdmin(admin.page, suite.server.url);
    await admin.page.getByRole('link', { name: 'Webhooks' }).click();
    await admin.page.getByText('No webhooks yet').waitFor();

    await admin.page.getByRole('button', { name: 'Create webhook' }).first().click();
    const form = admin.page.getByRole('dialog', { name: 'Create webhook' });
    await form.getByLabel('Name').fill('Team chat');
    await form.getByLabel('URL').fill(receiver.url);
    await form.getByRole('button', { name: 'Create webhook' }).click();
    await form.getByText('Choose at least one event').waitFor();
    await form.getByLabel('Paste created').check();
    await form.getByLabel('File downloaded').check();
    await form.getByRole('button', { name: 'Create webhook' }).click();

    // The secret is shown once; the list shows only its hint.
    const shown = admin.page.getByRole('dialog', { name: 'Signing secret' });
    const secret = (await shown.getByTestId('webhook-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^whsec_/);
    await shown.getByRole('button', { name: 'Done' }).click();
    const row = admin.page.locator('tr[data-webhook-name="Team chat"]');
    await row.waitFor();
    expect(await row.textContent()).not.toContain(secret);

    await row.getByRole('button', { name: 'Send a test event to Team chat' }).click();
    await admin.page.getByText(/Test event delivered \(HTTP 200/).first().waitFor();
    expect(receiver.payloads().map((payload) => payload.event)).toEqual(['webhook.test']);

    await row.getByRole('button', { name: 'Delivery log of Team chat' }).click();
    const log = admin.page.getByRole('dialog', { name: 'Delivery log: Team chat' });
    const entry = log.locator('tr[data-event="webhook.test"]');
    await entry.waitFor();
    expect(await entry.textContent()).toContain('HTTP 200');
    await log.getByRole('button', { name: 'Close' }).click();

    // A paste shared in the editor reaches the receiver, signed with the secret shown above.
    await admin.page.getByRole('link', { name: 'Home' }).click();
    await admin.page.locator('.cm-content').click();
    await admin.page.keyboard.insertText('Lunch at noon');
    await admin.page.getByLabel('Link suffix').fill('lunch-e2e');
    await admin.page.getByText('Available').waitFor();
    await admin.page.getByRole('button', { name: 'Create share' }).click();
    await admin.page.getByRole('textbox', { name: 'Share link' }).waitFor();
    await expect.poll(() => receiver.payloads().map((payload) => payload.event), { timeout: 15_000 }).toEqual(['webhook.test', 'paste.created']);
    const arrived = receiver.received[1];
    expect(receiver.payloads()[1]?.data).toMatchObject({ slug: 'lunch-e2e', hasPassword: false, encrypted: false });
    expect(arrived?.body).not.toContain('Lunch at noon');
    expect(verifySignature(secret, arrived?.headers['x-clipstash-signature'] as string, arrived?.body ?? '')).toBeTypeOf('number');
  });
});
