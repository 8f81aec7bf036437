import { expect, test } from '../support/fixtures.js';

/*
 * Issue 11: a verification belongs to the demo account (accountOf), not to one browser session.
 * Signing out and in again keeps it; "Forget my verification" ends it.
 */

test('verified once: still verified after signing out and in again, until forgotten', async ({
  page,
  site,
}) => {
  const person = await site.signInVerified();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await site.signInAs(person, '/account');
  await site.expectGateOpen(false);

  // Another person signing in on the same browser sees nothing of it.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await site.signInAs({ name: 'Grace Hopper', email: `grace.${Date.now()}@example.com` }, '/account');
  await expect(page).toHaveURL(/\/verify(\?|$)/);
  // Her verification started: this test is about what stays after it. Signing out while it is being
  // created is a race of its own, tested in packages/express/test/signout-race.test.ts.
  await site.expectPhase('awaiting_user');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL((url) => url.pathname === '/');

  await site.signInAs(person, '/account');
  await site.expectGateOpen(false);
  await page.getByRole('button', { name: 'Forget my verification' }).click();
  await page.waitForURL(/\/verify$/);
  await site.expectGateShut();
});
