// Hono on Node (@hono/node-server) on two instances (two processes) with no shared store: testkit's suite.
import { fileURLToPath } from 'node:url';
import { describeInstancesWithoutStore } from '@verify-kit/testkit';

describeInstancesWithoutStore('Hono', fileURLToPath(new URL('./support/instance.ts', import.meta.url)));
