// Two Miniflare workers (two workerd isolates, no memory in common) with no shared store: testkit's
// suite, the Hono app and the Fetch door as the Workers README writes them.
import { describeInstancesWithoutStore } from '@verify-kit/testkit';
import type { AppName } from './support/app-instance.js';
import { workerd } from './support/runtimes/workerd.js';
import { startApp } from './support/start-app.js';

for (const app of ['hono', 'fetch-door'] as AppName[]) {
  describeInstancesWithoutStore(`${app} on workerd`, async (env) => {
    const running = await startApp(() => workerd.prepare(app), env);
    const [instance] = running.instances;
    if (instance === undefined) throw new Error('no instance started');
    return { url: instance.url, stop: () => running.close() };
  });
}
