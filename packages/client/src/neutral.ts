// What both entries export: the parts of the client that run on any runtime (no undici, no node:*).

export * from './errors.js';
export type { DocumentFields } from './match-criterion.js';
export { matchCriterion, normalizeForMatch } from './match-criterion.js';
export type { OptionIssue } from './parse-options.js';
export { invalidOptions, parseOptions } from './parse-options.js';
export * from './schemas.js';
export type { OnAttempt, UpstreamAttempt, UpstreamOperation } from './upstream-attempt.js';
export type { RequestOptions, VerifyClient } from './verify-client.js';
export { WebhookSecretSchema } from './webhook-secret.js';
