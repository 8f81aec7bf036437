import { expect, test } from '../support/fixtures.js';
import {
  boundIds,
  continueToAccount,
  expectGateShut,
  expectPhase,
  phone,
  runScenario,
  signIn,
  snap,
  submitDocument,
  widget,
} from '../support/flow.js';
import { outbox } from '../support/sandbox-control.js';

test('approve: sign in, verify on the phone beside the widget, reach the gated account page', async ({
  page,
}) => {
  await page.goto('/');
  await snap(page, 'sign-in', { docs: true });
  await signIn(page);
  await expectPhase(page, 'awaiting_user');
  await expect(phone(page).getByTestId('step-document')).toBeVisible();
  await snap(page, 'verify-awaiting', { docs: true });

  // Before approval the gate is shut.
  await expectGateShut(page);
  await expectPhase(page, 'awaiting_user');

  await submitDocument(phone(page));
  await expectPhase(page, 'approved');
  await expect(widget(page).locator('[part="title"]')).toHaveText('Your identity is verified');
  await snap(page, 'verify-approved', { docs: true });

  await continueToAccount(page);
  await snap(page, 'account', { docs: true });
});

test('approve after an OTP sent by e-mail', async ({ page, demo }) => {
  const person = await signIn(page);
  await runScenario(page, 'OTP by e-mail');
  const app = phone(page);
  await expect(app.getByTestId('step-otp')).toBeVisible();
  const { verificationSessionId } = await boundIds(page.request);
  const messages = (await outbox(demo.sandbox)).filter(
    (m) => m.verificationSessionId === verificationSessionId,
  );
  const otp = messages.find((m) => m.kind === 'otp');
  expect(otp?.channel).toBe('email');
  expect(otp?.recipient).toBe(person.email);

  await app.getByTestId('otp-input').fill(String(otp?.otp));
  await app.getByTestId('otp-submit').click();
  await submitDocument(app);
  await expectPhase(page, 'approved');
  await continueToAccount(page);
});

test('approve after an OTP sent by phone', async ({ page, demo }) => {
  await signIn(page);
  await runScenario(page, 'OTP by phone', async (p) => {
    await p.getByLabel('Phone number', { exact: true }).fill('+90 555 010 12 34');
  });
  const app = phone(page);
  await expect(app.getByTestId('step-otp')).toBeVisible();
  const { verificationSessionId } = await boundIds(page.request);
  const otp = (await outbox(demo.sandbox)).find(
    (m) => m.verificationSessionId === verificationSessionId && m.kind === 'otp',
  );
  expect(otp?.channel).toBe('sms');
  expect(String(otp?.recipient).replace(/\D/g, '')).toBe('905550101234');

  // A wrong code first: refused, and the person can try again.
  await app.getByTestId('otp-input').fill(otp?.otp === '000000' ? '111111' : '000000');
  await app.getByTestId('otp-submit').click();
  await expect(app.getByTestId('error')).toBeVisible();
  await app.getByTestId('otp-input').fill(String(otp?.otp));
  await app.getByTestId('otp-submit').click();
  await submitDocument(app);
  await expectPhase(page, 'approved');
  await continueToAccount(page);
});

test('contact-less: no contact detail, no message sent, straight to the document', async ({ page, demo }) => {
  await signIn(page);
  await runScenario(page, 'Contact-less');
  const app = phone(page);
  await expect(app.getByTestId('step-document')).toBeVisible();
  await expect(app.getByTestId('step-otp')).toBeHidden();
  const { verificationSessionId } = await boundIds(page.request);
  expect(
    (await outbox(demo.sandbox)).filter((m) => m.verificationSessionId === verificationSessionId),
  ).toEqual([]);

  await submitDocument(app);
  await expectPhase(page, 'approved');
  await continueToAccount(page);
});
