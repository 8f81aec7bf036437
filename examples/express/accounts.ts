import { createVerifyKit } from '@verify-kit/express';
import { createRedisBindingStore } from '@verify-kit/express/redis';

const kit = createVerifyKit({
  baseUrl: process.env.IDV_BASE_URL!,
  apiKey: process.env.IDV_API_KEY!,
  workflowId: 'default',
  accountOf: (req) => req.session.userId, // undefined: an anonymous visitor
  bindingStore: createRedisBindingStore({ url: process.env.REDIS_URL }), // default: in memory
});

export { kit };
