// The README's reference of startSandbox, checked against the package's declarations by `pnpm lint`.
import type * as sandboxPackage from '@verify-kit/sandbox';
import type { SameType } from '../support/same-type.js';

// #region reference
declare function startSandbox(options?: SandboxOptions): Promise<Sandbox>;

interface SandboxOptions {
  port?: number; // default 0 = random (the CLI: 4010)
  host?: string; // default 127.0.0.1
  apiKey?: string; // default random 'sk_sandbox_…'; printable ASCII, no spaces
  baseUrl?: string; // http(s) URL used in links; default the listening URL
  workflows?: string[]; // default ['default']
  reviewDelayMs?: number; // default 1500
  appScheme?: string; // default 'idv'
  deepLinkStyle?: 'spec' | 'sdk'; // default 'spec'; 'sdk': the vendor SDK's order of the deep link
  webhookUrl?: string;
  webhookSecret?: string; // [whsec_]<base64 of ≥ 16 bytes>; both or neither
  webhookRetryBaseMs?: number; // default 500 (doubled per attempt, capped at 60 s, jittered)
  webhookMaxAttempts?: number; // default 6 (the first attempt included)
  webhookTimeoutMs?: number; // default 5000, per attempt
  rateLimit?: { requests: number; windowMs: number }; // default off
  retentionMs?: number; // default 24 h
  maxSessions?: number; // default 50,000; beyond it the oldest session is evicted
  now?: () => number; // clock for tests; default Date.now
}

interface Sandbox {
  url: string; // listening URL, no trailing slash
  baseUrl: string; // the links' base (baseUrl option or url)
  apiKey: string;
  port: number;
  advanceClock(ms: number): void; // moves the sandbox clock forward and applies expiry/eviction
  now(): number; // the sandbox clock (epoch ms): the `now` option's time plus every advance
  close(): Promise<void>; // stops timers, pending webhook retries and the server
}
// #endregion reference

export const readmeMatchesPackage: [
  SameType<SandboxOptions, sandboxPackage.SandboxOptions>,
  SameType<Sandbox, sandboxPackage.Sandbox>,
  SameType<typeof startSandbox, typeof sandboxPackage.startSandbox>,
] = [true, true, true];
