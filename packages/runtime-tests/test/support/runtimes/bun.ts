import type { Runtime } from '../app-instance.js';
import { bunBinary, resolveBinary } from '../binaries.js';
import { baseEnv, startChild } from '../child-app.js';
import { appEntry, PACKAGE_DIR } from './paths.js';

/**
 * Bun runs the app's TypeScript as Bun users do, no bundle: `bun run bun/<app>.ts`, resolving this
 * workspace's packages through their `source` condition (`--conditions=source`), as Vitest does.
 */
export const bun: Runtime = {
  name: 'bun',
  async prepare(app) {
    const binary = resolveBinary(bunBinary());
    return {
      launch: (env) =>
        startChild({
          name: `bun ${app}`,
          command: binary,
          args: ['--conditions=source', 'run', appEntry('bun', app)],
          env: { ...baseEnv(), ...env, PORT: '0' },
          cwd: PACKAGE_DIR,
        }),
      dispose: async () => {},
    };
  },
};
