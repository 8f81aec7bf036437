import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.js';
import {
  continueToAccount,
  type DemoPerson,
  expectGateOpen,
  expectGateShut,
  expectPhase,
  phone,
  signIn,
  submitDocument,
} from '../support/flow.js';

/*
 * Issue 11: a verification belongs to the demo account (accountOf), not to one browser session.
 * Signing out and in again keeps it; "Forget my verification" ends it.
 */

async function signInAgain(page: Page, person: DemoPerson): Promise<void> {
  await page.goto('/?returnTo=%2Faccount');
  await page.getByLabel('Name').fill(person.name);
  await page.getByLabel('E-mail').fill(person.email);
  await page.getByRole('button', { name: 'Sign in with the demo account' }).click();
}

test('verified once: still verified after signing out and in again, until forgotten', async ({ page }) => {
  const person = await signIn(page);
  await submitDocument(phone(page));
  await expectPhase(page, 'approved');
  await continueToAccount(page);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await signInAgain(page, person);
  await expectGateOpen(page, false);

  // Another person signing in on the same browser sees nothing of it.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await signInAgain(page, { name: 'Grace Hopper', email: `grace.${Date.now()}@example.com` });
  await expect(page).toHaveURL(/\/verify(\?|$)/);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL((url) => url.pathname === '/');

  await signInAgain(page, person);
  await expectGateOpen(page, false);
  await page.getByRole('button', { name: 'Forget my verification' }).click();
  await page.waitForURL(/\/verify$/);
  await expectGateShut(page);
});
