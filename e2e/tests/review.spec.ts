import { expect, test } from '../support/fixtures.js';
import { submitDocument } from '../support/flow.js';
import { advanceClock } from '../support/sandbox-control.js';

test('manual review, then the reviewer approves with the demo’s button', async ({ site }) => {
  await site.signIn();
  await site.submitDocument({ scenario: 'manual_review' });
  await site.expectPhase('in_manual_review');
  await expect(site.reviewer()).toBeVisible();
  await site.snap('verify-manual-review', { docs: true });
  await site.expectGateShut();

  // Back on /verify the reviewer is offered again; the demo server decides this account's verification.
  await site.reviewer().getByRole('button', { name: 'Approve' }).click();
  await site.expectPhase('approved');
  await expect(site.reviewer()).toBeHidden();
  await site.continueToAccount();
});

test('manual review, the reviewer rejects: “Try again” starts a new session that gets through', async ({
  site,
}) => {
  await site.signIn();
  const firstCode = await site.sessionCode();
  await site.submitDocument({ scenario: 'manual_review' });
  await site.expectPhase('in_manual_review');
  await site.reviewer().getByRole('button', { name: 'Reject' }).click();
  await site.expectPhase('rejected');
  await expect(site.part('title')).toHaveText('We could not verify your identity');
  expect((await site.apiGet('/api/demo/account')).status()).toBe(403);

  await site.widget.getByRole('button', { name: 'Try again' }).click();
  await site.expectPhase('awaiting_user');
  expect(await site.sessionCode()).not.toBe(firstCode);
  // The phone beside the widget follows the new session.
  await site.submitDocument();
  await site.expectPhase('approved');
  await site.continueToAccount();
});

test('manual review, the reviewer asks for resubmission: “Continue” returns to the app, the second document gets through', async ({
  site,
}) => {
  await site.signIn();
  const code = await site.sessionCode();
  const app = site.phone;
  await submitDocument(app, { scenario: 'manual_review' });
  await site.expectPhase('in_manual_review');
  await site.reviewer().getByRole('button', { name: 'Ask for resubmission' }).click();
  await site.expectPhase('resubmission_required');
  await expect(site.reviewer()).toBeHidden();
  await expect(site.part('title')).toHaveText('Please try again');
  expect((await site.apiGet('/api/demo/account')).status()).toBe(403);

  // "Continue" goes back to the same session's handoff (no new session); the app asks again.
  await site.widget.getByRole('button', { name: 'Continue' }).click();
  await expect(site.part('title')).toHaveText('Continue in the app');
  expect(await site.sessionCode()).toBe(code);
  await expect(app.getByTestId('resubmit-note')).toBeVisible();
  await submitDocument(app, { scenario: 'approve' });
  await site.expectPhase('approved');
  await site.continueToAccount();
});

test('resubmission required, then the person submits again and is approved', async ({ site }) => {
  await site.signIn();
  const app = site.phone;
  await submitDocument(app, { scenario: 'resubmit' });
  await site.expectPhase('resubmission_required');
  await site.expectGateShut();
  await site.expectPhase('resubmission_required');

  await expect(app.getByTestId('resubmit-note')).toBeVisible();
  await submitDocument(app, { scenario: 'approve' });
  await site.expectPhase('approved');
  await site.continueToAccount();
});

test('expiry: the session runs out, the gate stays shut, a new session gets through', async ({
  demo,
  site,
}) => {
  await site.signInToScenario('Plain approval', async (p) => {
    await p.getByLabel('Duration in minutes (1 to 1440)').fill('1');
  });
  await site.expectPhase('awaiting_user');
  const firstCode = await site.sessionCode();
  // The phone has loaded the session (before the clock moves, or it would open on "expired").
  await expect(site.phone.getByTestId('step-document')).toBeVisible();

  // Past the one-minute duration on the sandbox's clock (the demo's kit follows that clock).
  await advanceClock(demo.sandbox, 61_000);
  await site.expectPhase('expired');
  // The phone, still on the document step, is refused: the session is over for the service too.
  await site.phone.getByTestId('document-submit').click();
  await expect(site.phone.getByTestId('step-expired')).toBeVisible();
  await site.snap('verify-expired');
  expect((await site.apiGet('/api/demo/account')).status()).toBe(403);

  // The widget offers a new session; the gate stays shut until that one is approved.
  await site.widget.getByRole('button', { name: 'Start a new verification' }).click();
  await site.expectPhase('awaiting_user');
  expect(await site.sessionCode()).not.toBe(firstCode);
  await site.expectGateShut();
  await site.expectPhase('awaiting_user');
  await site.submitDocument();
  await site.expectPhase('approved');
  await site.continueToAccount();
});
