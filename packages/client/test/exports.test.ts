import { expect, it } from 'vitest';

it('the public exports stay what other packages code against', async () => {
  expect(Object.keys(await import('../src/index.js')).sort()).toMatchInlineSnapshot(`
    [
      "ApprovalCriterionSchema",
      "CONDITIONS",
      "ConditionSchema",
      "CreateSessionRequestSchema",
      "CreateSessionResponseSchema",
      "DANGEROUS_SCHEMES",
      "DEFAULT_DURATION_MINUTES",
      "DeepLinkSchema",
      "ERROR_CODES",
      "EmailSchema",
      "ErrorBodySchema",
      "IDENTIFICATION_STATUS",
      "IdentificationSchema",
      "IdentificationStatusSchema",
      "KNOWN_CRITERION_TYPES",
      "KNOWN_STATUSES",
      "LOCALES",
      "LocaleSchema",
      "MAX_DURATION_MINUTES",
      "MIN_DURATION_MINUTES",
      "PhoneNumberSchema",
      "SessionCodeSchema",
      "StrictCreateSessionResponseSchema",
      "VERIFY_TYPES",
      "VerifyKitError",
      "VerifyRequestSchema",
      "VerifyResponseSchema",
      "VerifyTypeSchema",
      "WEBHOOK_EVENT_TYPES",
      "WebhookPayloadSchema",
      "WebhookSecretSchema",
      "createClient",
      "generateWebhookSecret",
      "invalidOptions",
      "isApproved",
      "isKnownStatus",
      "isVerifyKitError",
      "matchCriterion",
      "normalizeForMatch",
      "parseOptions",
      "signWebhook",
      "verifyWebhook",
    ]
  `);
});

it('the fetch entry exports the same, with createFetchClient for createClient and no node:crypto webhook helpers', async () => {
  const main = Object.keys(await import('../src/index.js'));
  const fetch = Object.keys(await import('../src/fetch.js'));
  const nodeOnly = ['createClient', 'generateWebhookSecret', 'signWebhook', 'verifyWebhook'];
  expect(fetch.sort()).toEqual(
    [...main.filter((name) => !nodeOnly.includes(name)), 'createFetchClient'].sort(),
  );
});
