import { expect, it } from 'vitest';

it('the public exports (additions only; nothing here is removed silently)', async () => {
  expect(Object.keys(await import('../src/index.js')).sort()).toMatchInlineSnapshot(`
    [
      "MAX_SEALED_COOKIE_BYTES",
      "MIN_COOKIE_SECRET_LENGTH",
      "VISITOR_COOKIE",
      "VerifyKitError",
      "cookieName",
      "cookieSecrets",
      "createVerifyKit",
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
