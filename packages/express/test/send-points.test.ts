// The third red team's second finding: send caps were spent by sends that never happened. Over real
// HTTP against the real sandbox, whose outbox shows every link the service sent; the same suite runs
// on the Fetch door and on Hono (testkit's red-team.ts).
import { describeSendPoints } from '@verify-kit/testkit';
import { startRedTeamApp } from './support/app.js';

describeSendPoints('sk_test_send_points_2b8e', startRedTeamApp);
