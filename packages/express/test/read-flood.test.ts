// The third red team's medium finding: one client polling at will made the service look down for
// everybody. Over real HTTP against the real sandbox limited to 40 calls a second on the key, two
// addresses hold 30 anonymous verifications each and poll them every 50 ms, while verified people
// open the gated page in new visits: every one of them gets in, and the service never answers 429
// (testkit's red-team suite, which the Fetch door and Hono run too). In the project that runs alone
// (packages/vitest.config.ts): the flood's own load must be the only one.
import { describeReadFlood } from '@verify-kit/testkit';
import { startRedTeamApp } from './support/app.js';

describeReadFlood('sk_test_read_budget_6c1f', startRedTeamApp);
