import { gatedAppAt, redTeamKitOptions, type StartApp, serveFetch } from '@verify-kit/testkit';
import { createVerifyKit } from '../../src/index.js';
import { appOf, userOf } from './fetch-app.js';

// The red team's app on core's Fetch door (testkit's StartApp), for red-team.test.ts and read-flood.test.ts.

const SECRET = 'red-team-test-secret-0123456789abcdefghij';

export const startRedTeamApp: StartApp = async (options) => {
  const kit = createVerifyKit({
    basePath: '/identity',
    secret: SECRET,
    ...redTeamKitOptions(options, userOf),
  });
  const server = await serveFetch(appOf(kit));
  return gatedAppAt(server.url, kit, server);
};
