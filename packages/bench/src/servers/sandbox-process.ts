// A child process running @verify-kit/sandbox (the built package), driven by the bench over IPC.
import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import { memoryNow, serveCommands } from './rpc.js';

export interface SandboxStart {
  reviewDelayMs: number;
  webhookUrl?: string;
  webhookSecret?: string;
  retentionMs?: number;
}

let sandbox: Sandbox | undefined;

const commands = {
  async start(options: SandboxStart) {
    sandbox = await startSandbox({
      reviewDelayMs: options.reviewDelayMs,
      ...(options.webhookUrl ? { webhookUrl: options.webhookUrl, webhookSecret: options.webhookSecret } : {}),
      ...(options.retentionMs !== undefined ? { retentionMs: options.retentionMs } : {}),
    });
    return { url: sandbox.url, apiKey: sandbox.apiKey };
  },
  advanceClock(ms: number) {
    sandbox?.advanceClock(ms);
  },
  memory: () => memoryNow(),
  async close() {
    await sandbox?.close();
  },
};

export type SandboxCommands = typeof commands;

serveCommands(commands);
