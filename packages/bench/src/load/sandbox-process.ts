/* Child process: the sandbox (built package). Argument: JSON SandboxProcessConfig. */
import { startSandbox } from '@verify-kit/sandbox';
import { serveParent } from './ipc.js';

export interface SandboxProcessConfig {
  apiKey: string;
  reviewDelayMs: number;
  webhookUrl?: string;
  webhookSecret?: string;
}

export interface SandboxProcessInfo {
  url: string;
}

const config = JSON.parse(process.argv[2] ?? '{}') as SandboxProcessConfig;
const sandbox = await startSandbox(config);

serveParent({ url: sandbox.url } satisfies SandboxProcessInfo, {
  close: () => sandbox.close(),
});
