// The third red team's four findings (issue 33) on core's Fetch door, over real HTTP: the kit
// served by testkit's Node bridge (serveFetch, which hands the gate the socket's address), the same
// suites the Express shell runs (testkit's red-team.ts): send points, a 404 inside a visit, a
// revocation against reads lagging 1.5 s. The status-poll flood is read-flood.test.ts, run alone.
import { describeDefinitiveAnswers, describeSendPoints } from '@verify-kit/testkit';
import { startRedTeamApp } from './support/red-team-app.js';

describeSendPoints('sk_test_fetch_send_points_8a20', startRedTeamApp);
describeDefinitiveAnswers('sk_test_fetch_definitive_c35e', startRedTeamApp);
