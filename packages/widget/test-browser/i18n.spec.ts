import { ar } from '../src/strings.ar.js';
import { de } from '../src/strings.de.js';
import { en } from '../src/strings.en.js';
import { tr } from '../src/strings.tr.js';
import { events, expect, FAST, test, title } from './fixtures.js';
import type { StubServer } from './stub-server.js';

test('speaks the document language by default (tr), and marks its content with that language', async ({
  page,
  stub,
  widget,
  open,
}) => {
  await open({ attrs: FAST, lang: 'tr' }, tr.idleTitle);
  await expect(widget.locator('[part~="base"]')).toHaveAttribute('lang', 'tr');
  await page.getByRole('button', { name: tr.start }).click();
  await expect(title(widget)).toHaveText(tr.awaitingTitle);
  await expect(widget.getByRole('img', { name: tr.qrAlt })).toBeVisible();
  await expect(widget.getByRole('link', { name: tr.webPage })).toBeVisible();
  await expect(widget.locator('[part~="time"]')).toHaveText('Kalan süre: 30 dakika');
  expect(stub.sentSession(0)).toEqual({ locale: 'tr' });
});

test('the locale attribute wins over the document language, and switching it re-renders', async ({
  widget,
  open,
}) => {
  await open({ attrs: `${FAST} locale="en"`, lang: 'tr' }, en.idleTitle);
  await widget.evaluate((el) => el.setAttribute('locale', 'tr'));
  await expect(title(widget)).toHaveText(tr.idleTitle);
  await widget.evaluate((el) => el.setAttribute('locale', 'en'));
  await expect(title(widget)).toHaveText(en.idleTitle);
  await expect(widget.locator('[part~="base"]')).toHaveAttribute('lang', 'en');
});

test('a change of the document language at run time re-renders (region subtags ignored)', async ({
  page,
  widget,
  open,
}) => {
  await open({ attrs: FAST, lang: 'en' }, en.idleTitle);
  await page.evaluate(() => {
    document.documentElement.lang = 'tr-TR';
  });
  await expect(title(widget)).toHaveText(tr.idleTitle);
});

test('an unknown or missing language falls back to English', async ({ open }) => {
  await open({ attrs: `${FAST} locale="fr"`, lang: 'fr' }, en.idleTitle);
  await open({ attrs: FAST, lang: null }, en.idleTitle);
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
    // A long outage announced: shown at once (a short 503 is asked again first).
    headers: { 'retry-after': '120' },
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
  open,
}) => {
  await page.route('**/verify-identity.strings.tr.js', (route) => route.abort());
  await open({ attrs: FAST, lang: 'tr' }, en.idleTitle);
  // Marked as English (screen readers pronounce it so), while the app is still asked for Turkish.
  await expect(widget.locator('[part~="base"]')).toHaveAttribute('lang', 'en');
  await page.getByRole('button', { name: en.start }).click();
  await expect(title(widget)).toHaveText(en.awaitingTitle);
  await expect(widget.locator('[part~="time"]')).toHaveText('Time left: 30 minutes');
  expect(stub.sentSession(0)).toEqual({ locale: 'tr' });
});

/** A session of `minutes`: the time left reads in whole minutes, plural by the language's rules. */
function sessionOf(stub: StubServer, minutes: number): void {
  stub.sessionMs = minutes * 60_000;
}

test('the German walk: start, the QR and its time left (one and several), review, approval', async ({
  page,
  stub,
  widget,
  open,
}) => {
  sessionOf(stub, 1);
  await open({ attrs: FAST, lang: 'de' }, de.idleTitle);
  await page.getByRole('button', { name: de.start }).click();
  await expect(title(widget)).toHaveText(de.awaitingTitle);
  await expect(widget.getByRole('img', { name: de.qrAlt })).toBeVisible();
  await expect(widget.locator('[part~="time"]')).toHaveText('Verbleibende Zeit: 1 Minute');
  expect(stub.sentSession(0)).toEqual({ locale: 'de' });
  await expect(widget).toHaveAttribute('dir', 'ltr');
  sessionOf(stub, 30);
  await widget.evaluate((el: HTMLElement & { start(restart?: boolean): Promise<void> }) => el.start(true));
  await expect(widget.locator('[part~="time"]')).toHaveText('Verbleibende Zeit: 30 Minuten');
  stub.setPhase('in_review');
  await expect(title(widget)).toHaveText(de.reviewTitle);
  stub.setPhase('approved', 'APPROVED');
  await expect(title(widget)).toHaveText(de.approvedTitle);
});

test('the Arabic walk: right to left, the plural forms of Arabic through Intl.PluralRules, approval', async ({
  page,
  stub,
  widget,
  open,
}) => {
  sessionOf(stub, 2);
  await open({ attrs: FAST, lang: 'ar' }, ar.idleTitle);
  await expect(widget).toHaveAttribute('dir', 'rtl');
  await page.getByRole('button', { name: ar.start }).click();
  await expect(title(widget)).toHaveText(ar.awaitingTitle);
  // Arabic has a dual: "two minutes" is one word.
  await expect(widget.locator('[part~="time"]')).toHaveText('الوقت المتبقي: دقيقتان');
  expect(stub.sentSession(0)).toEqual({ locale: 'ar' });
  for (const [minutes, text] of [
    [5, 'الوقت المتبقي: 5 دقائق'],
    [30, 'الوقت المتبقي: 30 دقيقة'],
  ] as const) {
    sessionOf(stub, minutes);
    await widget.evaluate((el: HTMLElement & { start(restart?: boolean): Promise<void> }) => el.start(true));
    await expect(widget.locator('[part~="time"]')).toHaveText(text);
  }
  stub.setPhase('approved', 'APPROVED');
  await expect(title(widget)).toHaveText(ar.approvedTitle);
});

test('German and Arabic are each downloaded only when shown', async ({ stub, widget, open }) => {
  await open({ attrs: FAST, lang: 'de' }, de.idleTitle);
  expect(stub.scripts).toEqual(['verify-identity.standalone.js', 'verify-identity.strings.de.js']);
  await widget.evaluate((el) => el.setAttribute('locale', 'ar'));
  await expect(title(widget)).toHaveText(ar.idleTitle);
  expect(stub.scripts).toEqual([
    'verify-identity.standalone.js',
    'verify-identity.strings.de.js',
    'verify-identity.strings.ar.js',
  ]);
});
