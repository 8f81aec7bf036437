export type { ErrorCode, VerifyRequest, VerifyResponse } from '@verify-kit/client';
export { isVerifyKitError, VerifyKitError } from '@verify-kit/client';
export type { NotApprovedBody } from '@verify-kit/core/internal/answers/gate';
export type { VerificationBinding } from '@verify-kit/core/internal/bindings/binding';
export type {
  BindingRecords,
  BindingStore,
  DecisionRecords,
  MemoryBindingStoreOptions,
  RecordStore,
  StatusRecord,
  StatusRecords,
  StoredDecision,
} from '@verify-kit/core/internal/bindings/binding-store';
export { createMemoryBindingStore } from '@verify-kit/core/internal/bindings/binding-store';
export type { Retention } from '@verify-kit/core/internal/bindings/retention';
export { bindingExpiresAt, statusRecordExpiresAt } from '@verify-kit/core/internal/bindings/retention';
export type { SendLinkContact, VouchedContacts } from '@verify-kit/core/internal/creation/send-link';
export type { DecisionSource, Freshness } from '@verify-kit/core/internal/decisions/decisions';
export type { AuditEvent, AuditHandler } from '@verify-kit/core/internal/shared/audit';
export { ERROR_CODE } from '@verify-kit/core/internal/shared/errors';
export type { StatusBus, StatusHint, StatusListener } from '@verify-kit/core/internal/status/status-bus';
export { createMemoryStatusBus } from '@verify-kit/core/internal/status/status-bus';
export type { StatusChangeEvent, StatusChangeHandler } from '@verify-kit/core/internal/status/status-events';
export type { ReplayStore } from '@verify-kit/core/internal/webhooks/replay-store';
export type { KitHealth } from '@verify-kit/core/internal/wiring/health';
export type { KitStore } from '@verify-kit/core/internal/wiring/kit-store';
export type {
  Logger,
  SessionLimit,
  SessionOptions,
  WebhookPayloadParser,
} from '@verify-kit/core/internal/wiring/options';
export type { BeforeSend, ContactOf } from './http/express-request.js';
export type { RequireApprovedOptions } from './http/gate.js';
export { sameOriginJson } from './http/same-origin-json.js';
export type { AccountStatus, StatusOfOptions, StatusOfResult, VerifyKit } from './kit.js';
export { createVerifyKit } from './kit.js';
export type {
  SendLinkOptions,
  VerifyKitOptions,
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
export type { ShutdownOptions } from './wiring/shutdown.js';
