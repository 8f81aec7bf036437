import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.js';
import type { DemoSite } from '../support/flow.js';

/** A new person signs in and runs the plain approval with the pages, the widget and the app in `language`. */
async function signInSpeaking(site: DemoSite, language: string, adjust?: (page: Page) => Promise<void>) {
  await site.signInToScenario('Plain approval', async (p) => {
    await p.getByLabel('Language of the pages, the widget and the app').selectOption(language);
    await adjust?.(p);
  });
}

test('in Turkish the demo’s pages read Turkish with the widget, from /verify to /account', async ({
  page,
  site,
}) => {
  await signInSpeaking(site, 'tr');

  // The verify page: its language, header, headings, buttons and hints.
  await expect(page.locator('html')).toHaveAttribute('lang', 'tr');
  await expect(page).toHaveTitle('Kimliğinizi doğrulayın · verify-kit demo');
  await expect(page.getByRole('navigation', { name: 'Demo sayfaları' })).toContainText('Doğrulama');
  await expect(page.getByRole('button', { name: 'Çıkış yap' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Kimliğinizi doğrulayın');
  await expect(page.getByRole('button', { name: 'Yeni bir oturumla baştan başla' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Perde arkasında olanlar' })).toBeVisible();
  await expect(page.locator('#scenario-summary')).toHaveText(
    'Senaryo: hesabın e-postası, tek kullanımlık parola yok, onay kriteri yok, uygulama dili Türkçe, 30 dakika.',
  );
  await expect(site.part('title')).toHaveText('Uygulamada devam edin');

  // Manual review: the reviewer's panel speaks Turkish as well.
  await site.submitDocument({ scenario: 'manual_review' });
  await site.expectPhase('in_manual_review');
  await expect(page.locator('#outcome')).toHaveText('Hizmetteki bir görevli belgeyi inceliyor.');
  await expect(site.part('title')).toHaveText('Belgenizi bir görevli inceliyor');
  await site.reviewer('İnceleyen görevli').getByRole('button', { name: 'Onayla' }).click();
  await site.expectPhase('approved');
  await expect(site.part('title')).toHaveText('Kimliğiniz doğrulandı');

  // The account page.
  await site.continueToAccount();
  await expect(page.locator('html')).toHaveAttribute('lang', 'tr');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hesabınız');
  await expect(page.locator('#account-state')).toHaveText(
    /^Hoş geldiniz, Ada Lovelace\. Kimliğiniz doğrulandı/,
  );
  await expect(page.getByRole('button', { name: 'Doğrulamamı unut' })).toBeVisible();
  await expect(page.locator('main')).toContainText('Bu sayfa kit.requireApproved() arkasında');
  await expect(page.locator('main')).not.toContainText('Your account');
});

test('in German the demo’s pages and the widget read German, the app English, from /verify to /account', async ({
  page,
  site,
}) => {
  await signInSpeaking(site, 'de');

  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await expect(page).toHaveTitle('Identität bestätigen · verify-kit-Demo');
  await expect(page.getByRole('navigation', { name: 'Demo-Seiten' })).toContainText('Überprüfung');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bestätigen Sie Ihre Identität');
  // The service's app speaks English or Turkish: in German it is asked for English, and says so.
  await expect(page.locator('#scenario-summary')).toHaveText(
    'Szenario: die E-Mail des Kontos, kein Einmalpasswort, keine Genehmigungskriterien, App auf Englisch, 30 Minuten.',
  );
  await expect(site.part('title')).toHaveText('In der App fortfahren');
  await expect(site.part('time')).toHaveText('Verbleibende Zeit: 30 Minuten');

  await site.submitDocument();
  await site.expectPhase('approved');
  await expect(site.part('title')).toHaveText('Ihre Identität ist bestätigt');
  await site.continueToAccount();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ihr Konto');
  await expect(page.getByRole('button', { name: 'Meine Überprüfung vergessen' })).toBeVisible();
});

test('in Arabic the pages and the widget read right to left, the code left to right, from /verify to /account', async ({
  page,
  site,
}) => {
  await signInSpeaking(site, 'ar', async (p) => {
    await p.getByLabel('Duration in minutes (1 to 1440)').fill('2');
  });

  await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page).toHaveTitle('تحقق من هويتك · العرض التجريبي لـ verify-kit');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('تحقق من هويتك');
  await expect(page.locator('#scenario-summary')).toHaveText(
    // Two minutes: Arabic's dual, a form Intl.PluralRules gives and English does not have.
    'السيناريو: البريد الإلكتروني للحساب، بلا كلمة مرور لمرة واحدة، بلا معايير موافقة، التطبيق بالإنجليزية، دقيقتان.',
  );
  await expect(site.widget).toHaveAttribute('dir', 'rtl');
  await expect(site.part('title')).toHaveText('تابع في التطبيق');
  await expect(site.part('time')).toHaveText('الوقت المتبقي: دقيقتان');
  await expect(site.part('code').locator('[aria-hidden="true"]')).toHaveCSS('direction', 'ltr');
  await expect
    .poll(() => site.part('qr').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true);
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(violations.map((v) => v.id)).toEqual([]);
  await site.snap('verify-awaiting-ar', { docs: true });
  const desktop = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  const sideways = () =>
    page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
  expect(await sideways()).toBe(false);
  if (desktop) await page.setViewportSize(desktop);

  await site.submitDocument();
  await site.expectPhase('approved');
  await expect(site.part('title')).toHaveText('تم التحقق من هويتك');
  await site.continueToAccount();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('حسابك');
});
