import { expect, test } from '../support/fixtures.js';
import {
  apiGet,
  continueToAccount,
  expectGateShut,
  expectPhase,
  phone,
  reviewer,
  runScenario,
  sessionCodeOf,
  signIn,
  snap,
  submitDocument,
  widget,
  widgetPart,
} from '../support/flow.js';
import { advanceClock } from '../support/sandbox-control.js';

test('manual review, then the reviewer approves with the demo’s button', async ({ page }) => {
  await signIn(page);
  await submitDocument(phone(page), { scenario: 'manual_review' });
  await expectPhase(page, 'in_manual_review');
  await expect(reviewer(page)).toBeVisible();
  await snap(page, 'verify-manual-review', { docs: true });
  await expectGateShut(page);

  // Back on /verify the reviewer is offered again; the demo server decides this account's verification.
  await reviewer(page).getByRole('button', { name: 'Approve' }).click();
  await expectPhase(page, 'approved');
  await expect(reviewer(page)).toBeHidden();
  await continueToAccount(page);
});

test('manual review, the reviewer rejects: “Try again” starts a new session that gets through', async ({
  page,
}) => {
  await signIn(page);
  const firstCode = await sessionCodeOf(page);
  await submitDocument(phone(page), { scenario: 'manual_review' });
  await expectPhase(page, 'in_manual_review');
  await reviewer(page).getByRole('button', { name: 'Reject' }).click();
  await expectPhase(page, 'rejected');
  await expect(widgetPart(page, 'title')).toHaveText('We could not verify your identity');
  expect((await apiGet(page.request, '/api/demo/account')).status()).toBe(403);

  await widget(page).getByRole('button', { name: 'Try again' }).click();
  await expectPhase(page, 'awaiting_user');
  expect(await sessionCodeOf(page)).not.toBe(firstCode);
  // The phone beside the widget follows the new session.
  await submitDocument(phone(page));
  await expectPhase(page, 'approved');
  await continueToAccount(page);
});

test('manual review, the reviewer asks for resubmission: “Continue” returns to the app, the second document gets through', async ({
  page,
}) => {
  await signIn(page);
  const code = await sessionCodeOf(page);
  const app = phone(page);
  await submitDocument(app, { scenario: 'manual_review' });
  await expectPhase(page, 'in_manual_review');
  await reviewer(page).getByRole('button', { name: 'Ask for resubmission' }).click();
  await expectPhase(page, 'resubmission_required');
  await expect(reviewer(page)).toBeHidden();
  await expect(widgetPart(page, 'title')).toHaveText('Please try again');
  expect((await apiGet(page.request, '/api/demo/account')).status()).toBe(403);

  // "Continue" goes back to the same session's handoff (no new session); the app asks again.
  await widget(page).getByRole('button', { name: 'Continue' }).click();
  await expect(widgetPart(page, 'title')).toHaveText('Continue in the app');
  expect(await sessionCodeOf(page)).toBe(code);
  await expect(app.getByTestId('resubmit-note')).toBeVisible();
  await submitDocument(app, { scenario: 'approve' });
  await expectPhase(page, 'approved');
  await continueToAccount(page);
});

test('resubmission required, then the person submits again and is approved', async ({ page }) => {
  await signIn(page);
  const app = phone(page);
  await submitDocument(app, { scenario: 'resubmit' });
  await expectPhase(page, 'resubmission_required');
  await expectGateShut(page);
  await expectPhase(page, 'resubmission_required');

  await expect(app.getByTestId('resubmit-note')).toBeVisible();
  await submitDocument(app, { scenario: 'approve' });
  await expectPhase(page, 'approved');
  await continueToAccount(page);
});

test('expiry: the session runs out, the gate stays shut, a new session gets through', async ({
  page,
  demo,
}) => {
  await signIn(page);
  await runScenario(page, 'Plain approval', async (p) => {
    await p.getByLabel('Duration in minutes (1 to 1440)').fill('1');
  });
  await expectPhase(page, 'awaiting_user');
  const firstCode = await sessionCodeOf(page);
  // The phone has loaded the session (before the clock moves, or it would open on "expired").
  await expect(phone(page).getByTestId('step-document')).toBeVisible();

  // Past the one-minute duration on the sandbox's clock (the demo's kit follows that clock).
  await advanceClock(demo.sandbox, 61_000);
  await expectPhase(page, 'expired');
  // The phone, still on the document step, is refused: the session is over for the service too.
  await phone(page).getByTestId('document-submit').click();
  await expect(phone(page).getByTestId('step-expired')).toBeVisible();
  await snap(page, 'verify-expired');
  expect((await apiGet(page.request, '/api/demo/account')).status()).toBe(403);

  // The widget offers a new session; the gate stays shut until that one is approved.
  await widget(page).getByRole('button', { name: 'Start a new verification' }).click();
  await expectPhase(page, 'awaiting_user');
  expect(await sessionCodeOf(page)).not.toBe(firstCode);
  await expectGateShut(page);
  await expectPhase(page, 'awaiting_user');
  await submitDocument(phone(page));
  await expectPhase(page, 'approved');
  await continueToAccount(page);
});
