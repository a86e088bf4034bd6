import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, newPerson } from './harness';
import { useSuite } from './suite';

const suite = useSuite();
// Passkeys belong to a host name, and WebAuthn takes no IP address for one: the app is reached as localhost here.
const appUrl = () => suite.server.url.replace('127.0.0.1', 'localhost');

/** What an authenticator app holding `secret` shows `stepsAhead` time steps from now. */
const appCode = (secret: string, stepsAhead = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + stepsAhead * 30_000 });

async function passwordStep(page: Page) {
  await page.goto(`${appUrl()}/admin`);
  await page.getByLabel('Username').fill(ADMIN_USERNAME);
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('form', { name: 'Second step' }).waitFor();
}

async function logOut(page: Page) {
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('heading', { name: 'Log in to Clipstash' }).waitFor();
}

async function openSecuritySettings(page: Page) {
  await page.goto(`${appUrl()}/admin/settings`);
  await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
}

/** Shared by the tests below, in order: the codes the enrolment showed. */
let recoveryCodes: string[] = [];

describe('admin two-factor sign-in', () => {
  it('the admin enrols an authenticator app, logs out, and logs in with a code; a used code is refused', async () => {
    const { page, context, errors } = await newPerson(suite.browser);
    await page.goto(`${appUrl()}/admin`);
    await page.getByLabel('Username').fill(ADMIN_USERNAME);
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Admin panel' }).waitFor();

    await openSecuritySettings(page);
    await page.getByText('Two-factor sign-in is off: the password alone logs in.').waitFor();
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await page.locator('[aria-label="QR code for the authenticator app"][data-ready="true"]').waitFor();
    const secret = await page.getByLabel('Secret key').inputValue();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);

    await page.getByLabel('Code from the app').fill('000000');
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByText('Wrong or already used code').waitFor();
    await page.getByLabel('Code from the app').fill(appCode(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();

    const shown = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await shown.first().waitFor();
    recoveryCodes = await shown.allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText('Two-factor sign-in is on.').waitFor();
    await page.getByText('10 of 10 recovery codes left.').waitFor();

    await logOut(page);
    await passwordStep(page);
    expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBeNull();
    // The enrolment spent this step's code: the app's next one (one step ahead is within the window) logs in.
    const code = appCode(secret, 1);
    await page.getByLabel('Authentication code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Admin panel' }).waitFor();

    await logOut(page);
    await passwordStep(page);
    await page.getByLabel('Authentication code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('Wrong or already used code').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a recovery code logs in once', async () => {
    const { page, context } = await newPerson(suite.browser);
    const [code = ''] = recoveryCodes;
    await passwordStep(page);
    await page.getByLabel('Authentication code').fill(code.toUpperCase());
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Admin panel' }).waitFor();
    await openSecuritySettings(page);
    await page.getByText('9 of 10 recovery codes left.').waitFor();

    await logOut(page);
    await passwordStep(page);
    await page.getByLabel('Authentication code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('Wrong or already used code').waitFor();
    await context.close();
  });

  it('the admin registers a passkey, logs out, logs in with it, then turns two-factor sign-in off', async () => {
    const { page, context, errors } = await newPerson(suite.browser);
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });

    await passwordStep(page);
    await page.getByLabel('Authentication code').fill(recoveryCodes[1] ?? '');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Admin panel' }).waitFor();
    await openSecuritySettings(page);
    await page.getByText('No passkeys yet.').waitFor();
    await page.getByLabel('Name of the new passkey').fill('Laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    const passkeys = page.getByRole('list', { name: 'Passkeys' });
    await passkeys.getByText('Laptop').waitFor();
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);

    page.once('dialog', (dialog) => void dialog.accept('Work laptop'));
    await page.getByRole('button', { name: 'Rename Laptop' }).click();
    await passkeys.getByText('Work laptop').waitFor();

    await logOut(page);
    await passwordStep(page);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.getByRole('heading', { name: 'Admin panel' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toMatch(/^[\w-]{40,}$/);

    // Turning off asks for the password and a code (a recovery code here).
    await openSecuritySettings(page);
    const turnOff = page.getByRole('form', { name: 'Turn off two-factor sign-in' });
    await turnOff.getByLabel('Password').fill(ADMIN_PASSWORD);
    await turnOff.getByLabel('Authentication or recovery code').fill(recoveryCodes[2] ?? '');
    await turnOff.getByRole('button', { name: 'Turn off two-factor sign-in' }).click();
    await page.getByText('Two-factor sign-in is off: the password alone logs in.').waitFor();

    await logOut(page);
    await page.getByLabel('Username').fill(ADMIN_USERNAME);
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Admin panel' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
