import { dirname } from 'node:path';
import type { Runtime } from '../app-instance.js';
import { denoBinary, resolveBinary } from '../binaries.js';
import { bundleApp } from '../bundle.js';
import { baseEnv, startChild } from '../child-app.js';
import { appEntry } from './paths.js';

/**
 * Deno runs the app bundled (its `deno` export condition first): the workspace's TypeScript sources
 * import `./x.js` for `./x.ts`, which Deno resolves only with sloppy imports. The permissions are the
 * app's needs and no more: the network on 127.0.0.1 (its port, the service) and its environment.
 */
export const deno: Runtime = {
  name: 'deno',
  async prepare(app) {
    const binary = resolveBinary(denoBinary());
    const bundle = await bundleApp(appEntry('deno', app), ['deno']);
    return {
      launch: (env) =>
        startChild({
          name: `deno ${app}`,
          command: binary,
          args: [
            'run',
            '--quiet',
            '--no-prompt',
            '--no-config',
            '--no-lock',
            '--allow-net=127.0.0.1',
            '--allow-env',
            bundle.path,
          ],
          env: { ...baseEnv(), ...env, PORT: '0', DENO_NO_UPDATE_CHECK: '1' },
          cwd: dirname(bundle.path),
        }),
      dispose: () => bundle.remove(),
    };
  },
};
