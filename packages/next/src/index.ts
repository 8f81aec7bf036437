// @verify-kit/next: verify-kit in a Next.js App Router app (Node runtime), a thin shell over
// @verify-kit/core's Fetch door: route handlers, a proxy gate, statusOf() and forget() in server code.
export type {
  ErrorCode,
  GateResult,
  GateRules,
  KitHealth,
  KitRuntime,
  StatusOfOptions,
  StatusOfResult,
} from '@verify-kit/core';
export { isVerifyKitError, VerifyKitError } from '@verify-kit/core';
export type { ClientAddress } from './client-address.js';
export type { ProxyGate, RouteHandler, VerifyKit, VerifyKitOptions } from './kit.js';
export { createVerifyKit, DEFAULT_BASE_PATH } from './kit.js';
