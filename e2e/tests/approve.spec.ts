import { expect, test } from '../support/fixtures.js';
import { enterOtp, submitDocument } from '../support/flow.js';

test('approve: sign in, verify on the phone beside the widget, reach the gated account page', async ({
  page,
  site,
}) => {
  await page.goto('/');
  await site.snap('sign-in', { docs: true });
  await site.signIn();
  await site.expectPhase('awaiting_user');
  await expect(site.phone.getByTestId('step-document')).toBeVisible();
  await site.snap('verify-awaiting', { docs: true });

  // Before approval the gate is shut.
  await site.expectGateShut();
  await site.expectPhase('awaiting_user');

  await site.submitDocument();
  await site.expectPhase('approved');
  await expect(site.widget.locator('[part="title"]')).toHaveText('Your identity is verified');
  await site.snap('verify-approved', { docs: true });

  await site.continueToAccount();
  await site.snap('account', { docs: true });
});

test('approve after an OTP sent by e-mail', async ({ demo, site }) => {
  const person = await site.signInToScenario('OTP by e-mail');
  const app = site.phone;
  await expect(app.getByTestId('step-otp')).toBeVisible();
  const otp = (await site.messagesSent(demo.sandbox)).find((m) => m.kind === 'otp');
  expect(otp?.channel).toBe('email');
  expect(otp?.recipient).toBe(person.email);

  await enterOtp(app, String(otp?.otp));
  await submitDocument(app);
  await site.expectPhase('approved');
  await site.continueToAccount();
});

test('approve after an OTP sent by phone', async ({ demo, site }) => {
  await site.signInToScenario('OTP by phone', async (p) => {
    await p.getByLabel('Phone number', { exact: true }).fill('+90 555 010 12 34');
  });
  const app = site.phone;
  await expect(app.getByTestId('step-otp')).toBeVisible();
  const otp = (await site.messagesSent(demo.sandbox)).find((m) => m.kind === 'otp');
  expect(otp?.channel).toBe('sms');
  expect(String(otp?.recipient).replace(/\D/g, '')).toBe('905550101234');

  // A wrong code first: refused, and the person can try again.
  await enterOtp(app, otp?.otp === '000000' ? '111111' : '000000');
  await expect(app.getByTestId('error')).toBeVisible();
  await enterOtp(app, String(otp?.otp));
  await submitDocument(app);
  await site.expectPhase('approved');
  await site.continueToAccount();
});

test('contact-less: no contact detail, no message sent, straight to the document', async ({ demo, site }) => {
  await site.signInToScenario('Contact-less');
  const app = site.phone;
  await expect(app.getByTestId('step-document')).toBeVisible();
  await expect(app.getByTestId('step-otp')).toBeHidden();
  expect(await site.messagesSent(demo.sandbox)).toEqual([]);

  await submitDocument(app);
  await site.expectPhase('approved');
  await site.continueToAccount();
});
