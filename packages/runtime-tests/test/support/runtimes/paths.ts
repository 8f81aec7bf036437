import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppName } from '../app-instance.js';

/** packages/runtime-tests: one folder per runtime, each with its apps. */
export const PACKAGE_DIR = fileURLToPath(new URL('../../../', import.meta.url));

/** The app as the runtime's folder writes it, e.g. packages/runtime-tests/deno/hono.ts. */
export const appEntry = (runtime: string, app: AppName) => join(PACKAGE_DIR, runtime, `${app}.ts`);
