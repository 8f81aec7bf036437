// One instance of the Fetch door's test app in a process of its own (testkit's
// startInstanceProcess): the kit from the environment, no store but its own memory.
import { announceListening, kitOptionsFromEnv, serveFetch } from '@verify-kit/testkit';
import { createVerifyKit } from '../../src/index.js';
import { appOf } from './fetch-app.js';

const kit = createVerifyKit(kitOptionsFromEnv());
const server = await serveFetch(appOf(kit));
announceListening(server.url);
process.once('SIGTERM', () => {
  void kit
    .close()
    .then(() => server.close())
    .then(() => process.exit(0));
});
