import { expect, test } from '../support/fixtures.js';

test('Turkish criteria met accent-insensitively: “ŞEYMA IŞIK” on the card, “seyma isik” required', async ({
  page,
  site,
}) => {
  await site.signIn();
  await site.openPlayground();
  await page.getByRole('button', { name: 'Turkish name, accent-insensitive', exact: true }).click();
  await expect(page.getByLabel('Criterion 1: value')).toHaveValue('seyma');
  await expect(page.getByLabel('Criterion 2: value')).toHaveValue('isik');
  await expect(page.getByLabel('Criterion 1: ignore accents and case')).toBeChecked();
  await expect(page.getByLabel('Criterion 1: reject if not met')).toBeChecked();
  await site.snap('playground', { docs: true });
  await page.getByRole('button', { name: 'Save and run' }).click();
  await page.waitForURL(/\/verify$/);

  // The scenario's locale reaches the widget and the app.
  await expect(page.locator('verify-identity [part="base"]')).toHaveAttribute('lang', 'tr');
  await expect(site.phone.locator('html')).toHaveAttribute('lang', 'tr');

  await site.submitDocument({ preset: 'tr-id-card' });
  await site.expectPhase('approved');

  // Webhooks the kit accepted (signature checked by the kit), and the status change it told.
  await expect
    .poll(async () =>
      (await site.activity()).some((e) => e.kind === 'webhook' && e.type === 'identification.approved'),
    )
    .toBe(true);
  await expect
    .poll(async () =>
      (await site.activity()).some((e) => e.kind === 'status_change' && e.status === 'APPROVED'),
    )
    .toBe(true);
  await expect(page.locator('#activity')).toContainText('Webhook identification.approved');
  // The page speaks the scenario's Turkish too.
  await expect(page.locator('#activity')).toContainText('imza geçerli · kit tarafından kabul edildi');
  await expect(page.locator('#activity')).toContainText('→ APPROVED (approved)');
  await site.snap('verify-activity', { docs: true, element: page.locator('section:has(#activity)') });

  await site.continueToAccount();
});

test('a rejectIfNotMet criterion not met: rejected, and the gate stays shut', async ({ site }) => {
  await site.signInToScenario('Passports only (reject otherwise)');
  // An ID card, although only passports are accepted.
  await site.submitDocument({ preset: 'tr-id-card', scenario: 'approve' });
  await site.expectPhase('rejected');
  await site.snap('verify-rejected');
  await site.expectGateShut();
  await site.expectPhase('rejected');
});

test('a criterion not met without rejectIfNotMet goes to manual review, not approval', async ({ site }) => {
  await site.signInToScenario('Turkish name, accent-insensitive', async (p) => {
    await p.getByLabel('Criterion 2: reject if not met').uncheck();
  });
  // ŞEYMA YILMAZ: the given name matches, the surname does not.
  await site.submitDocument({ preset: 'tr-id-card-other-surname' });
  await site.expectPhase('in_manual_review');
  await site.expectGateShut();
});

test('the playground refuses an invalid scenario with a readable message beside each field', async ({
  page,
  site,
}) => {
  await site.signIn();
  await site.openPlayground();
  const duration = page.getByLabel('Duration in minutes (1 to 1440)');
  await duration.fill('0');
  await page.getByRole('button', { name: 'Add a criterion' }).click();
  await page.getByRole('button', { name: 'Save only' }).click();

  // Beside each field, in words, and read with it by a screen reader; a summary in the message box.
  await expect(duration).toHaveAttribute('aria-invalid', 'true');
  await expect(duration).toHaveAccessibleDescription('Enter at least 1 minute.');
  const value = page.getByLabel('Criterion 1: value');
  await expect(value).toHaveAccessibleDescription('Enter the value the field is compared with.');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('The scenario was not saved.');
  await expect(alert).toContainText('Duration in minutes (1 to 1440): Enter at least 1 minute.');
  await expect(alert).toContainText('Criterion 1: value: Enter the value the field is compared with.');

  // Not a whole number: the same field says so, never in zod's words.
  await duration.fill('1.5');
  await value.fill('seyma');
  await page.getByRole('button', { name: 'Save only' }).click();
  await expect(duration).toHaveAccessibleDescription('Enter the duration as a whole number of minutes.');
  await expect(value).not.toHaveAttribute('aria-invalid');
  await expect(page.getByRole('alert')).not.toContainText(
    /Invalid input|expected \w+, received|Too (small|big)/,
  );

  await duration.fill('20');
  await page.getByRole('button', { name: 'Save only' }).click();
  await expect(page.getByRole('alert')).toHaveText('Saved. The next new session uses this scenario.');
  await expect(page.locator('.field-error')).toHaveCount(0);
});
