export type { ClientOptions } from './client.js';
export { createClient } from './client.js';
export * from './neutral.js';
export type { SignWebhookInput, VerifiedWebhook, VerifyWebhookInput, WebhookHeaders } from './webhooks.js';
export { generateWebhookSecret, signWebhook, verifyWebhook } from './webhooks.js';
