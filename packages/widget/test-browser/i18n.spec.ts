import { en } from '../src/strings.en.js';
import { tr } from '../src/strings.tr.js';
import { events, expect, FAST, test, title } from './fixtures.js';

test('speaks the document language by default (tr), and marks its content with that language', async ({
  page,
  stub,
  widget,
}) => {
  await page.goto(stub.page({ attrs: FAST, lang: 'tr' }));
  await expect(title(widget)).toHaveText(tr.idleTitle);
  await expect(widget.locator('[part~="base"]')).toHaveAttribute('lang', 'tr');
  await page.getByRole('button', { name: tr.start }).click();
  await expect(title(widget)).toHaveText(tr.awaitingTitle);
  await expect(widget.getByRole('img', { name: tr.qrAlt })).toBeVisible();
  await expect(widget.getByRole('link', { name: tr.webPage })).toBeVisible();
  await expect(widget.locator('[part~="time"]')).toHaveText('Kalan süre: 30 dakika');
  expect(JSON.parse(stub.calls('/identity/session')[0]?.body ?? '')).toEqual({ locale: 'tr' });
});

test('the locale attribute wins over the document language, and switching it re-renders', async ({
  page,
  stub,
  widget,
}) => {
  await page.goto(stub.page({ attrs: `${FAST} locale="en"`, lang: 'tr' }));
  await expect(title(widget)).toHaveText(en.idleTitle);
  await widget.evaluate((el) => el.setAttribute('locale', 'tr'));
  await expect(title(widget)).toHaveText(tr.idleTitle);
  await widget.evaluate((el) => el.setAttribute('locale', 'en'));
  await expect(title(widget)).toHaveText(en.idleTitle);
  await expect(widget.locator('[part~="base"]')).toHaveAttribute('lang', 'en');
});

test('a change of the document language at run time re-renders (region subtags ignored)', async ({
  page,
  stub,
  widget,
}) => {
  await page.goto(stub.page({ attrs: FAST, lang: 'en' }));
  await expect(title(widget)).toHaveText(en.idleTitle);
  await page.evaluate(() => {
    document.documentElement.lang = 'tr-TR';
  });
  await expect(title(widget)).toHaveText(tr.idleTitle);
});

test('an unknown or missing language falls back to English', async ({ page, stub, widget }) => {
  await page.goto(stub.page({ attrs: `${FAST} locale="de"`, lang: 'de' }));
  await expect(title(widget)).toHaveText(en.idleTitle);
  await page.goto(stub.page({ attrs: FAST, lang: null }));
  await expect(title(widget)).toHaveText(en.idleTitle);
});

test('an integrator can replace any subset of the strings', async ({ page, stub, widget }) => {
  await page.goto(stub.page({ attrs: FAST, lang: 'tr' }));
  await widget.evaluate((el) => {
    (el as HTMLElement & { strings: Record<string, string> }).strings = {
      start: 'Kimliğimi şimdi doğrula',
      timeLeft: '{time} kaldı',
    };
  });
  await page.getByRole('button', { name: 'Kimliğimi şimdi doğrula' }).click();
  await expect(title(widget)).toHaveText(tr.awaitingTitle);
  await expect(widget.locator('[part~="time"]')).toHaveText('30 dakika kaldı');
});

test('error messages, and the error event, are in the element language', async ({ page, stub, widget }) => {
  stub.sessionReplies.push({
    status: 503,
    body: { error: { code: 'UPSTREAM_UNAVAILABLE', message: 'down' } },
  });
  await page.goto(stub.page({ attrs: FAST, lang: 'tr' }));
  await page.getByRole('button', { name: tr.start }).click();
  await expect(widget.getByText(tr.errorUnavailable)).toBeVisible();
  await expect(widget.getByRole('button', { name: tr.retry })).toBeVisible();
  expect((await events(page)).at(-1)?.detail).toEqual({
    code: 'UPSTREAM_UNAVAILABLE',
    message: tr.errorUnavailable,
  });
});

test('only the strings of the locale shown are downloaded: English ships inside, Turkish on demand', async ({
  page,
  stub,
  widget,
}) => {
  await page.goto(stub.page({ attrs: FAST, lang: 'en' }));
  await page.getByRole('button', { name: en.start }).click();
  await expect(title(widget)).toHaveText(en.awaitingTitle);
  expect(stub.scripts).toEqual(['verify-identity.standalone.js']);
  await widget.evaluate((el) => el.setAttribute('locale', 'tr'));
  await expect(title(widget)).toHaveText(tr.awaitingTitle);
  expect(stub.scripts).toEqual(['verify-identity.standalone.js', 'verify-identity.strings.tr.js']);
});

test('a locale whose strings cannot be loaded is shown in English, never blank', async ({
  page,
  stub,
  widget,
}) => {
  await page.route('**/verify-identity.strings.tr.js', (route) => route.abort());
  await page.goto(stub.page({ attrs: FAST, lang: 'tr' }));
  await expect(title(widget)).toHaveText(en.idleTitle);
  // Marked as English (screen readers pronounce it so), while the app is still asked for Turkish.
  await expect(widget.locator('[part~="base"]')).toHaveAttribute('lang', 'en');
  await page.getByRole('button', { name: en.start }).click();
  await expect(title(widget)).toHaveText(en.awaitingTitle);
  await expect(widget.locator('[part~="time"]')).toHaveText('Time left: 30 minutes');
  expect(JSON.parse(stub.calls('/identity/session')[0]?.body ?? '')).toEqual({ locale: 'tr' });
});
