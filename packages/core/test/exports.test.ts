import { expect, it } from 'vitest';

it('the public exports of this first landing (the engine adds to them; nothing here is removed silently)', async () => {
  expect(Object.keys(await import('../src/index.js')).sort()).toMatchInlineSnapshot(`
    [
      "MAX_SEALED_COOKIE_BYTES",
      "MIN_COOKIE_SECRET_LENGTH",
      "VerifyKitError",
      "cookieName",
      "cookieSecrets",
      "isVerifyKitError",
      "readCookie",
      "sealCookie",
      "serializeClearCookie",
      "serializeCookie",
      "unsealCookie",
      "verifyWebhook",
    ]
  `);
});
