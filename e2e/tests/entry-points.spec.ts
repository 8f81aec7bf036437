import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { expect, test } from '../support/fixtures.js';
import { appPageOf, DemoSite, submitDocument } from '../support/flow.js';

// jsqr is CommonJS with an `exports.default`: under NodeNext that is the callable.
const jsQR = jsQRModule.default;

test('the session code typed by hand in the app opens the same session', async ({ context, demo, site }) => {
  await site.signIn();
  await site.expectPhase('awaiting_user');
  const code = await site.sessionCode();
  expect(code).toMatch(/^[A-Z2-9]{8}$/);

  // The phone: the simulator's start page, where a person types the code (lower case, grouped).
  const handset = await context.newPage();
  await handset.goto(`${demo.sandbox.url}/app/`);
  await handset.getByTestId('code-input').fill(`${code.slice(0, 4).toLowerCase()} ${code.slice(4)}`);
  await handset.getByTestId('code-submit').click();
  await submitDocument(handset);
  await expect(handset.getByTestId('status')).toHaveAttribute('data-status', 'APPROVED');

  await site.expectPhase('approved');
  await site.continueToAccount();
});

test('the deep link decoded from the QR image leads to the same session', async ({ context, demo, site }) => {
  await site.signIn();
  const qr = site.widget.locator('[part="qr"]');
  await expect(qr).toBeVisible();
  await expect
    .poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true);

  // Decode what the person's camera would see.
  const png = PNG.sync.read(await qr.screenshot());
  const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  expect(decoded, 'a QR code readable in the screenshot').not.toBeNull();
  const deepLink = decoded?.data ?? '';
  const { verificationSessionId } = await site.boundIds();
  expect(deepLink).toBe(`idv://app-url/${demo.sandbox.url}/verification-session/${verificationSessionId}`);

  // The app follows the link: the simulator opened on the session it names.
  const handset = await context.newPage();
  await handset.goto(appPageOf(deepLink));
  await submitDocument(handset);
  await site.expectPhase('approved');
  await site.continueToAccount();
});

test('a reload mid-flow resumes the same session', async ({ page, site }) => {
  await site.signIn();
  await site.expectPhase('awaiting_user');
  const code = await site.sessionCode();
  const ids = await site.boundIds();

  await page.reload();
  await site.expectPhase('awaiting_user');
  expect(await site.sessionCode()).toBe(code);
  expect(await site.boundIds()).toEqual(ids);

  // Mid-review too.
  await site.submitDocument({ scenario: 'manual_review' });
  await site.expectPhase('in_manual_review');
  await page.reload();
  await site.expectPhase('in_manual_review');
  expect(await site.boundIds()).toEqual(ids);
});

test('a second tab shows the same session and both see the approval', async ({ context, site }) => {
  await site.signIn();
  await site.expectPhase('awaiting_user');
  const code = await site.sessionCode();

  const second = new DemoSite(await context.newPage());
  await second.page.goto('/verify');
  await second.expectPhase('awaiting_user');
  expect(await second.sessionCode()).toBe(code);

  await second.submitDocument();
  await second.expectPhase('approved');
  await site.expectPhase('approved');
  await site.expectGateOpen();
});
