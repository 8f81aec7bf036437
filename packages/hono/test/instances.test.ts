// Hono on Node (@hono/node-server) on two instances (two processes) with no shared store: testkit's suite.
import { fileURLToPath } from 'node:url';
import { describeInstancesWithoutStore, startInstanceProcess } from '@verify-kit/testkit';

const entry = fileURLToPath(new URL('./support/instance.ts', import.meta.url));
describeInstancesWithoutStore('Hono', (env) => startInstanceProcess(entry, env));
