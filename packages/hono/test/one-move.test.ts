// The approval's move on Hono is single-flight (issue 40, finding 8): testkit's suite.
import { describeOneMovePerApproval } from '@verify-kit/testkit';
import { createVerifyKit } from '../src/index.js';
import { appOf } from './support/app.js';
import { serveApp } from './support/serve.js';

describeOneMovePerApproval('Hono', 'sk_test_hono_one_move_93e1', async ({ baseUrl, apiKey, arrived }) => {
  const kit = createVerifyKit({
    baseUrl,
    apiKey,
    workflowId: 'default',
    secret: 'hono-one-move-test-secret-0123456789abcde',
  });
  const served = await serveApp(appOf(kit, arrived));
  return {
    url: served.url,
    async close() {
      await kit.close();
      await served.close();
    },
  };
});
