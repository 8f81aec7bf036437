import { devices, type Locator } from '@playwright/test';
import { expect, test } from '../support/fixtures.js';
import { appPageOf, enterOtp, submitDocument } from '../support/flow.js';

/*
 * How the session reaches the person's phone: "Open in the app" first on a phone, the QR code first
 * on a desktop, and the link sent by e-mail when the person asks for it.
 */

/** Where an element starts on the page (its top edge), for the order a person sees. */
async function topOf(locator: Locator): Promise<number> {
  const box = await locator.boundingBox();
  expect(box, 'the element is laid out').not.toBeNull();
  return box?.y ?? Number.NaN;
}

test.describe('on a phone', () => {
  // Pixel 7 in portrait; the browser stays the suite's Chromium.
  const { defaultBrowserType: _browser, ...pixel7 } = devices['Pixel 7'];
  test.use({ ...pixel7, viewport: { width: 412, height: 915 } });

  test('“Open in the app” comes first, the QR code second; the app opens the session', async ({
    page,
    context,
    site,
  }) => {
    await site.signIn();
    const openApp = site.part('deep-link');
    const qr = site.part('qr');
    await expect(openApp).toBeVisible();
    await expect(openApp).toHaveText('Open in the app');
    await expect(qr).toBeVisible();
    expect(await topOf(openApp)).toBeLessThan(await topOf(qr));
    // No simulator panel on a phone-sized screen: the person's own phone is the app.
    await expect(page.locator('#phone-panel')).toBeHidden();
    await site.snap('verify-awaiting-phone', { docs: true });

    // Tapping it opens the identity app on this session.
    const handset = await context.newPage();
    await handset.goto(appPageOf((await openApp.getAttribute('href')) ?? ''));
    await submitDocument(handset);
    await site.expectPhase('approved');
    await site.continueToAccount();
  });
});

test('on a desktop the QR code comes first and there is no bare “Open in the app”', async ({
  page,
  site,
}) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await site.signIn();
  const qr = site.part('qr');
  await expect(qr).toBeVisible();
  await expect(site.part('deep-link')).toBeHidden();
  expect(await topOf(qr)).toBeLessThan(await topOf(site.part('code')));
  await expect(site.phone.getByTestId('step-document')).toBeVisible();
  await site.snap('verify-awaiting-dark', { docs: true });
});

test('the person asks for the link by e-mail: it goes to the account’s own address, and gets through', async ({
  context,
  demo,
  site,
}) => {
  const person = await site.signIn();
  const firstCode = await site.sessionCode();
  const sendLink = site.part('send-link');
  // No address to type: one button per channel the kit offers (e-mail in the demo), naming where the
  // link goes, the signed-in account's own address, masked.
  await expect(sendLink.getByRole('textbox')).toHaveCount(0);
  await sendLink.getByRole('button', { name: 'Send link E-mail address: a•••@example.com' }).click();
  await expect(sendLink).toContainText('We sent the link to a•••@example.com.');

  // A new session, for that address: the sandbox's outbox holds its link and code.
  await site.expectPhase('awaiting_user');
  const code = await site.sessionCode();
  expect(code).not.toBe(firstCode);
  const sent = await site.messagesSent(demo.sandbox);
  expect(sent.map((m) => m.recipient)).toEqual(sent.map(() => person.email));
  const link = sent.find((m) => m.kind === 'link');
  expect(link?.channel).toBe('email');
  expect(link?.link).toBe(await site.part('deep-link').getAttribute('href'));
  expect(link?.text).toContain(code);

  // The person opens it in the app, which asks for the one-time password sent to the same address.
  const app = await context.newPage();
  await app.goto(appPageOf(link?.link ?? ''));
  await expect(app.getByTestId('step-otp')).toBeVisible();
  await enterOtp(app, String(sent.find((m) => m.kind === 'otp')?.otp));
  await submitDocument(app);
  await site.expectPhase('approved');
  await site.continueToAccount();
});
