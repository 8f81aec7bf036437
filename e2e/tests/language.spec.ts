import { expect, test } from '../support/fixtures.js';
import {
  continueToAccount,
  expectPhase,
  phone,
  reviewer,
  runScenario,
  signIn,
  submitDocument,
  widgetPart,
} from '../support/flow.js';

test('in Turkish the demo’s pages read Turkish with the widget, from /verify to /account', async ({
  page,
}) => {
  await signIn(page);
  await runScenario(page, 'Plain approval', async (p) => {
    await p.getByLabel('Language of the app').selectOption('tr');
  });

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
  await expect(widgetPart(page, 'title')).toHaveText('Uygulamada devam edin');

  // Manual review: the reviewer's panel speaks Turkish as well.
  await submitDocument(phone(page), { scenario: 'manual_review' });
  await expectPhase(page, 'in_manual_review');
  await expect(page.locator('#outcome')).toHaveText('Hizmetteki bir görevli belgeyi inceliyor.');
  await expect(widgetPart(page, 'title')).toHaveText('Belgenizi bir görevli inceliyor');
  await reviewer(page, 'İnceleyen görevli').getByRole('button', { name: 'Onayla' }).click();
  await expectPhase(page, 'approved');
  await expect(widgetPart(page, 'title')).toHaveText('Kimliğiniz doğrulandı');

  // The account page.
  await continueToAccount(page);
  await expect(page.locator('html')).toHaveAttribute('lang', 'tr');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hesabınız');
  await expect(page.locator('#account-state')).toHaveText(
    /^Hoş geldiniz, Ada Lovelace\. Kimliğiniz doğrulandı/,
  );
  await expect(page.getByRole('button', { name: 'Doğrulamamı unut' })).toBeVisible();
  await expect(page.locator('main')).toContainText('Bu sayfa kit.requireApproved() arkasında');
  await expect(page.locator('main')).not.toContainText('Your account');
});
