// The third red team's flood (issue 33) on Hono: a status-poll flood from two addresses against a
// sandbox limited to 40 calls/s (counted at its own addresses only if the shell passes the socket's)
// while verified people start their visits. In the project that runs alone (packages/vitest.config.ts).
import { describeReadFlood } from '@verify-kit/testkit';
import { startRedTeamApp } from './support/red-team-app.js';

describeReadFlood('sk_test_hono_read_budget_93fa', startRedTeamApp);
