// The Fetch door on two instances (two processes) with no shared store: testkit's suite.
import { fileURLToPath } from 'node:url';
import { describeInstancesWithoutStore } from '@verify-kit/testkit';

describeInstancesWithoutStore(
  'the Fetch door',
  fileURLToPath(new URL('./support/instance.ts', import.meta.url)),
);
