// The third red team's flood (issue 33) on core's Fetch door: a status-poll flood from two addresses
// against a sandbox limited to 40 calls/s while verified people start their visits. In the project
// that runs alone (packages/vitest.config.ts): the flood's own load must be the only one.
import { describeReadFlood } from '@verify-kit/testkit';
import { startRedTeamApp } from './support/red-team-app.js';

describeReadFlood('sk_test_fetch_read_budget_41d7', startRedTeamApp);
