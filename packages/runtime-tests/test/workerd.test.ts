import { fileURLToPath } from 'node:url';
import { describe } from 'vitest';
import { prepareWorker, workerd } from './support/runtimes/workerd.js';
import { describeRuntime } from './support/suite.js';
import { workersReadmeTests } from './support/workers-readme.js';

describeRuntime(workerd);

describe("core's README for Workers (examples/core/worker.ts) on workerd, as the README writes it", () => {
  const entry = fileURLToPath(new URL('../../../examples/core/worker.ts', import.meta.url));
  workersReadmeTests(() => prepareWorker(entry, 'readme-worker'));
});
