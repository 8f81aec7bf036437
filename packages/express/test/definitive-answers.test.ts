// The third red team's findings 3 and 4, over real HTTP on the fake upstream (the service whose
// answers a test sets): a 404 is a decision, not an outage; a verified refusal holds against reads
// that lag it, and a grant that overrode one is read again soon. The same suite runs on the Fetch
// door and on Hono (testkit's red-team.ts).
import { describeDefinitiveAnswers } from '@verify-kit/testkit';
import { startRedTeamApp } from './support/app.js';

describeDefinitiveAnswers('sk_test_definitive_9d4e', startRedTeamApp);
