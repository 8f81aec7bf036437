export * from './schemas.js';
export * from './errors.js';
export { createClient } from './client.js';
export type { ClientOptions, RequestOptions, VerifyClient } from './client.js';
export { matchCriterion, normalizeForMatch } from './match-criterion.js';
export type { DocumentFields } from './match-criterion.js';
export { generateWebhookSecret, signWebhook, verifyWebhook } from './webhooks.js';
export type { SignWebhookInput, VerifiedWebhook, VerifyWebhookInput, WebhookHeaders } from './webhooks.js';
