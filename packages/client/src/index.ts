export type { ClientOptions, RequestOptions, VerifyClient } from './client.js';
export { createClient } from './client.js';
export * from './errors.js';
export type { DocumentFields } from './match-criterion.js';
export { matchCriterion, normalizeForMatch } from './match-criterion.js';
export * from './schemas.js';
export type { SignWebhookInput, VerifiedWebhook, VerifyWebhookInput, WebhookHeaders } from './webhooks.js';
export { generateWebhookSecret, signWebhook, verifyWebhook } from './webhooks.js';
