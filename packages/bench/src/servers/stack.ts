import { generateWebhookSecret } from '@verify-kit/client';
import type { AppCommands } from './app-process.js';
import { type CountingProxy, startCountingProxy } from './counting-proxy.js';
import { type Child, startChild } from './rpc.js';
import type { SandboxCommands } from './sandbox-process.js';

export interface StackOptions {
  /** The sandbox's automatic review time. Default 0. */
  reviewDelayMs?: number;
  /** Sandbox -> kit signed webhooks. Default false. */
  webhooks?: boolean;
  /** Put a counting proxy between the kit and the sandbox. Default false. */
  countReads?: boolean;
  pollIntervalMs?: number;
  cookieMaxAgeMs?: number;
  retentionMs?: number;
}

/** The sandbox and the integrator's app, each in its own process, wired together. */
export interface Stack {
  appUrl: string;
  sandboxUrl: string;
  apiKey: string;
  proxy: CountingProxy | undefined;
  app: Child<AppCommands>;
  sandbox: Child<SandboxCommands>;
  stop(): Promise<void>;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const app = startChild<AppCommands>(new URL('./app-process.ts', import.meta.url));
  const sandbox = startChild<SandboxCommands>(new URL('./sandbox-process.ts', import.meta.url));
  let proxy: CountingProxy | undefined;
  const stop = async () => {
    await Promise.allSettled([app.call('close'), sandbox.call('close')]);
    await Promise.allSettled([app.stop(), sandbox.stop(), proxy?.close()]);
  };
  try {
    const { url: appUrl } = await app.call('listen', { cookieMaxAgeMs: options.cookieMaxAgeMs });
    const webhookSecret = options.webhooks ? generateWebhookSecret() : undefined;
    const { url: sandboxUrl, apiKey } = await sandbox.call('start', {
      reviewDelayMs: options.reviewDelayMs ?? 0,
      ...(webhookSecret ? { webhookUrl: `${appUrl}/identity/webhook`, webhookSecret } : {}),
      ...(options.retentionMs !== undefined ? { retentionMs: options.retentionMs } : {}),
    });
    proxy = options.countReads ? await startCountingProxy(sandboxUrl) : undefined;
    await app.call('configure', {
      baseUrl: proxy?.url ?? sandboxUrl,
      apiKey,
      ...(webhookSecret ? { webhookSecret } : {}),
      ...(options.pollIntervalMs ? { pollIntervalMs: options.pollIntervalMs } : {}),
    });
    return { appUrl, sandboxUrl, apiKey, proxy, app, sandbox, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
