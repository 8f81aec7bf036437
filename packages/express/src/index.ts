export type { ErrorCode, VerifyRequest, VerifyResponse } from '@verify-kit/client';
export { isVerifyKitError, VerifyKitError } from '@verify-kit/client';
export type { NotApprovedBody } from './answers/gate.js';
export type { VerificationBinding } from './bindings/binding.js';
export type {
  BindingRecords,
  BindingStore,
  DecisionRecords,
  MemoryBindingStoreOptions,
  RecordStore,
  StatusRecord,
  StatusRecords,
  StoredDecision,
} from './bindings/binding-store.js';
export { createMemoryBindingStore } from './bindings/binding-store.js';
export type { Retention } from './bindings/retention.js';
export { bindingExpiresAt, statusRecordExpiresAt } from './bindings/retention.js';
export type { SendLinkContact, VouchedContacts } from './creation/send-link.js';
export type { DecisionSource, Freshness } from './decisions/decisions.js';
export type { BeforeSend, ContactOf } from './http/express-request.js';
export type { RequireApprovedOptions } from './http/gate.js';
export { sameOriginJson } from './http/same-origin-json.js';
export type { AccountStatus, StatusOfOptions, StatusOfResult, VerifyKit } from './kit.js';
export { createVerifyKit } from './kit.js';
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
export type { AuditEvent, AuditHandler } from './shared/audit.js';
export { ERROR_CODE } from './shared/errors.js';
export type { StatusBus, StatusHint, StatusListener } from './status/status-bus.js';
export { createMemoryStatusBus } from './status/status-bus.js';
export type { StatusChangeEvent, StatusChangeHandler } from './status/status-events.js';
export type { ReplayStore } from './webhooks/replay-store.js';
export type { KitHealth } from './wiring/health.js';
export type { KitStore } from './wiring/kit-store.js';
export type {
  Logger,
  SendLinkOptions,
  SessionLimit,
  SessionOptions,
  VerifyKitOptions,
  WebhookPayloadParser,
  WebhookVerifier,
  WebhookVerifierInput,
} from './wiring/options.js';
export type { ShutdownOptions } from './wiring/shutdown.js';
