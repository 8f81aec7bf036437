import type { IncomingHttpHeaders } from 'node:http';
import type { ClientOptions } from '@verify-kit/client';
import type {
  VerifyKitOptions as EngineOptions,
  SendLinkOptions as EngineSendLinkOptions,
  WebhookVerifier as EngineWebhookVerifier,
} from '@verify-kit/core/internal/wiring/options';
import type { Request } from 'express';

/** What Express's webhookVerifier is given: Node's headers and the raw body. */
export interface WebhookVerifierInput {
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as received. */
  body: Buffer;
}

/** An undici Dispatcher, as the client takes it (its type comes through the client). */
export type Dispatcher = NonNullable<ClientOptions['dispatcher']>;

export type WebhookVerifier = EngineWebhookVerifier<WebhookVerifierInput>;
/** Send-link's options, with Express's request as contactOf's and beforeSend's. */
export type SendLinkOptions = EngineSendLinkOptions<Request>;

/** The engine's options (@verify-kit/core), with Express's request and undici's Dispatcher. */
export interface VerifyKitOptions extends Omit<EngineOptions<Request, WebhookVerifierInput>, 'dispatcher'> {
  /** An undici Dispatcher for the upstream calls (proxy, custom TLS). */
  dispatcher?: Dispatcher;
}
