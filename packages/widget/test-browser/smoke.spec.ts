import { expect, test, title } from './fixtures.js';

test('smoke', async ({ page, stub, widget }) => {
  page.on('console', (m) => console.log('console:', m.text()));
  page.on('pageerror', (e) => console.log('pageerror:', e.message));
  await page.goto(stub.page({ attrs: 'endpoint="/identity" poll-interval="50"' }));
  await page.getByRole('button', { name: 'Start verification' }).click();
  await expect(title(widget)).toHaveText('Continue in the app');
  await page.screenshot({ path: 'artifacts/smoke.png' });
});
