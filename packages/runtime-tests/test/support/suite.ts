import { describe } from 'vitest';
import { APPS, type Runtime } from './app-instance.js';
import { gateTests } from './gate-tests.js';
import { protocolTests } from './protocol-tests.js';
import { useRuntime } from './use-runtime.js';

/**
 * The one suite every runtime runs, written once: each app of the runtime's folder (core's Fetch
 * door, the Hono shell), started as that runtime's users start it, driven over real HTTP against a
 * real sandbox. A runtime's test file is `describeRuntime(itsRuntime)`.
 */
export function describeRuntime(runtime: Runtime): void {
  const targets = useRuntime(runtime);
  for (const app of APPS) {
    describe(`${app} on ${runtime.name}`, () => {
      const target = () => targets[app];
      protocolTests(target);
      gateTests(target);
    });
  }
}
