// `@verify-kit/client/fetch`: the client on Web APIs only, for runtime-neutral code (@verify-kit/core,
// workers, Deno, Bun). No undici and no node:* in this module's graph (test/fetch-entry.test.ts);
// the webhook helpers (node:crypto) stay in the main entry.
export type { FetchClientOptions } from './fetch-client.js';
export { createFetchClient } from './fetch-client.js';
export * from './neutral.js';
