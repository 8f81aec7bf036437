import { en } from '../src/strings.en.js';
import type { VerifyIdentity } from '../src/verify-identity.js';
import { bundle, expect, test, title } from './fixtures.js';

// Frameworks that bind properties, not attributes, set `autoStart` once the element is attached:
// the element starts then, as it does with the `auto-start` attribute.

test('React: <VerifyIdentity autoStart> of @verify-kit/widget/react starts the session', async ({
  stub,
  widget,
  open,
}) => {
  // react-page.ts with React, @lit/react and the built widget in one file, as an app's bundler makes it.
  stub.modules.set('react-page.js', (await bundle('react-page.ts')).code);
  await open({ module: 'react-page.js' }, en.awaitingTitle);
  expect(stub.calls('/identity/session')).toHaveLength(1);
  await expect(widget).toHaveJSProperty('autoStart', true);
});

test('a property binding (Vue): autoStart set after the element is attached starts the session', async ({
  page,
  stub,
  widget,
  openIdle,
}) => {
  await openIdle();
  await page.evaluate(() => {
    document.querySelector('verify-identity')?.remove();
    const element = document.createElement('verify-identity');
    element.endpoint = '/identity';
    document.querySelector('main')?.append(element);
    element.autoStart = true;
  });
  await expect(title(widget)).toHaveText(en.awaitingTitle);
  expect(stub.calls('/identity/session')).toHaveLength(1);
});

test('autoStart set while a session is on screen starts nothing more', async ({
  page,
  stub,
  widget,
  openIdle,
}) => {
  await openIdle();
  await page.getByRole('button', { name: en.start }).click();
  await expect(title(widget)).toHaveText(en.awaitingTitle);
  await widget.evaluate((element: VerifyIdentity) => {
    element.autoStart = true;
  });
  await page.waitForTimeout(200);
  expect(stub.calls('/identity/session')).toHaveLength(1);
});
