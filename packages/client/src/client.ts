// CONTRACT STUB: the client helper replaces the bodies; the signatures are the contract.
import type { Dispatcher } from 'undici';
import type {
  CreateSessionRequest,
  CreateSessionResponse,
  Identification,
  VerifyRequest,
  VerifyResponse,
} from './schemas.js';

export interface ClientOptions {
  /** The service's base address, e.g. https://idv.example.com (no /api/v1). */
  baseUrl: string;
  apiKey: string;
  /** Per attempt, headers and body. Default 10 000 ms. */
  timeoutMs?: number;
  /** Extra attempts of a safe read (GET). Default 2. Session creation is never retried blindly. */
  retries?: number;
  /** Backoff base and cap in ms (full jitter). Defaults 100 and 2 000. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** An undici Dispatcher (Agent/Pool/MockAgent). Default: a keep-alive Pool of the client's own. */
  dispatcher?: Dispatcher;
}

export interface RequestOptions {
  signal?: AbortSignal;
}

export interface VerifyClient {
  readonly baseUrl: string;
  createSession(body: CreateSessionRequest, options?: RequestOptions): Promise<CreateSessionResponse>;
  getIdentification(identificationId: string, options?: RequestOptions): Promise<Identification>;
  verify(identificationId: string, body: VerifyRequest, options?: RequestOptions): Promise<VerifyResponse>;
  /** {baseUrl}/api/v1/verification-sessions/<id>/qr-code */
  qrCodeUrl(verificationSessionId: string): string;
  /** Closes the client's own pool (not a dispatcher passed in). */
  close(): Promise<void>;
}

export function createClient(_options: ClientOptions): VerifyClient {
  throw new Error('not implemented');
}
