// The third red team's four findings (issue 33) on core's Fetch door, over real HTTP: the kit
// served by testkit's Node bridge (serveFetch, which hands the gate the socket's address), the same
// suites the Express shell runs (testkit's red-team.ts): a status-poll flood from two addresses
// against a sandbox limited to 40 calls/s, send points, a 404 inside a visit, a revocation against
// reads lagging 1.5 s.
import {
  describeDefinitiveAnswers,
  describeReadFlood,
  describeSendPoints,
  gatedAppAt,
  redTeamKitOptions,
  type StartApp,
  serveFetch,
} from '@verify-kit/testkit';
import { createVerifyKit } from '../src/index.js';
import { appOf, userOf } from './support/fetch-app.js';

const SECRET = 'red-team-test-secret-0123456789abcdefghij';

const start: StartApp = async (options) => {
  const kit = createVerifyKit({
    basePath: '/identity',
    secret: SECRET,
    ...redTeamKitOptions(options, userOf),
  });
  const server = await serveFetch(appOf(kit));
  return gatedAppAt(server.url, kit, server);
};

describeReadFlood('sk_test_fetch_read_budget_41d7', start);
describeSendPoints('sk_test_fetch_send_points_8a20', start);
describeDefinitiveAnswers('sk_test_fetch_definitive_c35e', start);
