export type { ErrorCode, VerifyRequest, VerifyResponse } from '@verify-kit/client';
export { isVerifyKitError, VerifyKitError } from '@verify-kit/client';
export type { VerificationBinding } from './binding.js';
export { ERROR_CODE } from './errors.js';
export type { NotApprovedBody, RequireApprovedOptions } from './gate.js';
export type { StatusOfOptions, StatusOfResult, VerifyKit } from './kit.js';
export { createVerifyKit } from './kit.js';
export type {
  Logger,
  SessionOptions,
  VerifyKitOptions,
  WebhookVerifier,
  WebhookVerifierInput,
} from './options.js';
export * from './protocol.js';
export type { ReplayStore } from './replay-store.js';
export type { StatusBus, StatusHint, StatusListener } from './status-bus.js';
export { createMemoryStatusBus } from './status-bus.js';
