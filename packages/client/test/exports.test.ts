import { expect, it } from 'vitest';

it('the public exports stay what other packages code against', async () => {
  expect(Object.keys(await import('../src/index.js')).sort()).toMatchInlineSnapshot(`
    [
      "ApprovalCriterionSchema",
      "CONDITIONS",
      "ConditionSchema",
      "CreateSessionRequestSchema",
      "CreateSessionResponseSchema",
      "DEFAULT_DURATION_MINUTES",
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
      "VERIFY_TYPES",
      "VerifyKitError",
      "VerifyRequestSchema",
      "VerifyResponseSchema",
      "VerifyTypeSchema",
      "WEBHOOK_EVENT_TYPES",
      "WebhookPayloadSchema",
      "createClient",
      "generateWebhookSecret",
      "isApproved",
      "isKnownStatus",
      "isVerifyKitError",
      "matchCriterion",
      "normalizeForMatch",
      "signWebhook",
      "verifyWebhook",
    ]
  `);
});
