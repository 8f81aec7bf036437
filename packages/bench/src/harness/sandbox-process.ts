// A child process running @verify-kit/sandbox (the built package), driven over IPC.
import { type Sandbox, type SandboxOptions, startSandbox } from '@verify-kit/sandbox';
import { serveCommands } from './child.js';

let sandbox: Sandbox | undefined;

const commands = {
  async start(options: SandboxOptions) {
    sandbox = await startSandbox(options);
    return { url: sandbox.url, apiKey: sandbox.apiKey };
  },
  advanceClock: (ms: number) => sandbox?.advanceClock(ms),
  close: async () => sandbox?.close(),
};

export type SandboxCommands = typeof commands;

serveCommands(commands);
