// @verify-kit/testkit: what the tests and benches of every package share. Private; never published.
export type { BrowserResponse, FetchOptions, RecordedResponse } from './browser.js';
export { Browser, transcript } from './browser.js';
export { CookieJar } from './cookie-jar.js';
export type { FakeUpstream, Fault, Mode } from './fake-upstream.js';
export { FAULTS, startFakeUpstream } from './fake-upstream.js';
export type { FaultKind, FaultProxy, FaultProxyOptions, FaultRates, Outcome } from './fault-proxy.js';
export { FAULT_KINDS, startFaultProxy } from './fault-proxy.js';
export type { CacheableApp } from './grants-not-shared.js';
export { CACHEABLE, describeGrantsNotShared } from './grants-not-shared.js';
export type { InstanceEnv, InstanceProcess } from './instance-process.js';
export { announceListening, kitOptionsFromEnv, startInstanceProcess } from './instance-process.js';
export type { StoreLessInstance } from './instances-without-store.js';
export { describeInstancesWithoutStore } from './instances-without-store.js';
export type { LineLogger } from './leaks.js';
export { capturingLogger, expectKeyNeverLeaked, logLines } from './leaks.js';
export type { StartForgettingApp } from './one-move.js';
export { describeOneMovePerApproval } from './one-move.js';
export type { PostgresServer } from './postgres-server.js';
export { findPostgresBin, startPostgresServer } from './postgres-server.js';
export { pick, seededRandom } from './random.js';
export type { GatedApp, RedTeamOptions, SendCap, StartApp } from './red-team/app.js';
export {
  browsersAt,
  closedAfterEach,
  gatedAppAt,
  gatedEvery,
  inVisit,
  linksTo,
  onFakeUpstream,
  redTeamKitOptions,
  startFlood,
  verificationsFrom,
} from './red-team/app.js';
export { describeDefinitiveAnswers } from './red-team/definitive-answers.js';
export { describeReadFlood } from './red-team/read-flood.js';
export { describeSendPoints } from './red-team/send-points.js';
export type { RedisServer } from './redis-server.js';
export { findRedisServer, startRedisServer } from './redis-server.js';
export type { FetchContext, FetchHandler } from './serve-fetch.js';
export { serveFetch } from './serve-fetch.js';
export type { Listening, Reply } from './servers.js';
export { freePort, listen, rawExchange, readBody } from './servers.js';
export type { SharedCache } from './shared-cache.js';
export { startSharedCache } from './shared-cache.js';
export { fromAddress } from './source-address.js';
export { findSystemProgram } from './system-programs.js';
export { until } from './until.js';
export { approveInSandbox, startVerificationOn, verifyIn } from './verifications.js';
export type { WebhookInput } from './webhooks.js';
export { deliverWebhook } from './webhooks.js';
