// The third red team's four findings (issue 33) on the Hono shell, over real HTTP: a Hono app on
// @hono/node-server, its client address the shell's own (the Node socket's), the same suites the
// Express shell runs (testkit's red-team.ts): send points, a 404 inside a visit, a revocation
// against reads lagging 1.5 s. The status-poll flood is read-flood.test.ts, run alone.
import { describeDefinitiveAnswers, describeSendPoints } from '@verify-kit/testkit';
import { startRedTeamApp } from './support/red-team-app.js';

describeSendPoints('sk_test_hono_send_points_5e61', startRedTeamApp);
describeDefinitiveAnswers('sk_test_hono_definitive_0b7c', startRedTeamApp);
