export type { ErrorCode, VerifyRequest, VerifyResponse } from '@verify-kit/client';
export { isVerifyKitError, VerifyKitError } from '@verify-kit/client';
export type { AuditEvent, AuditHandler } from './audit.js';
export type { VerificationBinding } from './binding.js';
export type {
  BindingStore,
  MemoryBindingStoreOptions,
  StatusRecord,
  StoredDecision,
} from './binding-store.js';
export { createMemoryBindingStore } from './binding-store.js';
export type { DecisionSource, Freshness } from './decisions.js';
export { ERROR_CODE } from './errors.js';
export type { NotApprovedBody, RequireApprovedOptions } from './gate.js';
export type { KitHealth } from './health.js';
export type { AccountStatus, StatusOfOptions, StatusOfResult, VerifyKit } from './kit.js';
export { createVerifyKit } from './kit.js';
export type {
  Logger,
  SendLinkOptions,
  SessionLimit,
  SessionOptions,
  VerifyKitOptions,
  WebhookPayloadParser,
  WebhookVerifier,
  WebhookVerifierInput,
} from './options.js';
export type {
  ErrorResponseBody,
  Locale,
  Phase,
  SendLinkChannel,
  SendLinkOffer,
  SessionRequestBody,
  SessionResponseBody,
  StatusResponseBody,
} from './protocol.js';
export { PHASE } from './protocol.js';
export type { ReplayStore } from './replay-store.js';
export type { Retention } from './retention.js';
export { bindingExpiresAt, statusRecordExpiresAt } from './retention.js';
export { sameOriginJson } from './same-origin-json.js';
export type { BeforeSend, ContactOf, SendLinkContact, VouchedContacts } from './send-link.js';
export type { ShutdownOptions } from './shutdown.js';
export type { StatusBus, StatusHint, StatusListener } from './status-bus.js';
export { createMemoryStatusBus } from './status-bus.js';
export type { StatusChangeEvent, StatusChangeHandler } from './status-events.js';
