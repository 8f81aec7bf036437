// The approval's move on the Fetch door is single-flight (issue 40, finding 8): testkit's suite.
import { describeOneMovePerApproval, serveFetch } from '@verify-kit/testkit';
import { createVerifyKit } from '../src/index.js';
import { appOf } from './support/fetch-app.js';

describeOneMovePerApproval(
  'the Fetch door',
  'sk_test_fetch_one_move_5c2a',
  async ({ baseUrl, apiKey, arrived }) => {
    const kit = createVerifyKit({
      baseUrl,
      apiKey,
      workflowId: 'default',
      basePath: '/identity',
      secret: 'fetch-one-move-test-secret-0123456789abcd',
    });
    const server = await serveFetch(appOf(kit, arrived));
    return {
      url: server.url,
      async close() {
        await kit.close();
        await server.close();
      },
    };
  },
);
