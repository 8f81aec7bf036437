import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { expect, test } from '../support/fixtures.js';
import {
  appPageOf,
  boundIds,
  continueToAccount,
  expectGateOpen,
  expectPhase,
  phone,
  sessionCodeOf,
  signIn,
  submitDocument,
  widget,
} from '../support/flow.js';

// jsqr is CommonJS with an `exports.default`: under NodeNext that is the callable.
const jsQR = jsQRModule.default;

test('the session code typed by hand in the app opens the same session', async ({ page, context, demo }) => {
  await signIn(page);
  await expectPhase(page, 'awaiting_user');
  const code = await sessionCodeOf(page);
  expect(code).toMatch(/^[A-Z2-9]{8}$/);

  // The phone: the simulator's start page, where a person types the code (lower case, grouped).
  const handset = await context.newPage();
  await handset.goto(`${demo.sandbox.url}/app/`);
  await handset.getByTestId('code-input').fill(`${code.slice(0, 4).toLowerCase()} ${code.slice(4)}`);
  await handset.getByTestId('code-submit').click();
  await submitDocument(handset);
  await expect(handset.getByTestId('status')).toHaveAttribute('data-status', 'APPROVED');

  await expectPhase(page, 'approved');
  await continueToAccount(page);
});

test('the deep link decoded from the QR image leads to the same session', async ({ page, context, demo }) => {
  await signIn(page);
  const qr = widget(page).locator('[part="qr"]');
  await expect(qr).toBeVisible();
  await expect
    .poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true);

  // Decode what the person's camera would see.
  const png = PNG.sync.read(await qr.screenshot());
  const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  expect(decoded, 'a QR code readable in the screenshot').not.toBeNull();
  const deepLink = decoded?.data ?? '';
  const { verificationSessionId } = await boundIds(page.request);
  expect(deepLink).toBe(`idv://app-url/${demo.sandbox.url}/verification-session/${verificationSessionId}`);

  // The app follows the link: the simulator opened on the session it names.
  const handset = await context.newPage();
  await handset.goto(appPageOf(deepLink));
  await submitDocument(handset);
  await expectPhase(page, 'approved');
  await continueToAccount(page);
});

test('a reload mid-flow resumes the same session', async ({ page }) => {
  await signIn(page);
  await expectPhase(page, 'awaiting_user');
  const code = await sessionCodeOf(page);
  const ids = await boundIds(page.request);

  await page.reload();
  await expectPhase(page, 'awaiting_user');
  expect(await sessionCodeOf(page)).toBe(code);
  expect(await boundIds(page.request)).toEqual(ids);

  // Mid-review too.
  await submitDocument(phone(page), { scenario: 'manual_review' });
  await expectPhase(page, 'in_manual_review');
  await page.reload();
  await expectPhase(page, 'in_manual_review');
  expect(await boundIds(page.request)).toEqual(ids);
});

test('a second tab shows the same session and both see the approval', async ({ page, context }) => {
  await signIn(page);
  await expectPhase(page, 'awaiting_user');
  const code = await sessionCodeOf(page);

  const second = await context.newPage();
  await second.goto('/verify');
  await expectPhase(second, 'awaiting_user');
  expect(await sessionCodeOf(second)).toBe(code);

  await submitDocument(phone(second));
  await expectPhase(second, 'approved');
  await expectPhase(page, 'approved');
  await expectGateOpen(page);
});
