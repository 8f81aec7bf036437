import { generateWebhookSecret } from '@verify-kit/client';
import type { SandboxOptions } from '@verify-kit/sandbox';
import { type FaultProxy, startFaultProxy } from '@verify-kit/testkit';
import type { AppConfig } from './app.js';
import type { AppCommands } from './app-process.js';
import { type Child, startChild } from './child.js';
import type { SandboxCommands } from './sandbox-process.js';

export interface StackOptions {
  /** The sandbox's automatic review time. Default 0. */
  reviewDelayMs?: number;
  /** Signed webhooks from the sandbox to the kit. Default false. */
  webhooks?: boolean;
  /** A proxy between the kit and the sandbox that counts every upstream call. Default false. */
  countCalls?: boolean;
  app?: Omit<AppConfig, 'upstreamUrl' | 'apiKey' | 'webhookSecret'>;
  sandbox?: Pick<SandboxOptions, 'retentionMs'>;
}

/** The sandbox and the integrator's app, each its own process (honest memory figures), wired together. */
export interface Stack {
  appUrl: string;
  sandboxUrl: string;
  apiKey: string;
  proxy: FaultProxy | undefined;
  app: Child<AppCommands>;
  sandbox: Child<SandboxCommands>;
  stop(): Promise<void>;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const app = startChild<AppCommands>(new URL('./app-process.ts', import.meta.url));
  const sandbox = startChild<SandboxCommands>(new URL('./sandbox-process.ts', import.meta.url));
  let proxy: FaultProxy | undefined;
  const stop = async () => {
    await Promise.allSettled([app.stop(), sandbox.stop()]);
    await proxy?.close();
  };
  try {
    const webhookSecret = options.webhooks ? generateWebhookSecret() : undefined;
    const { url: appUrl } = await app.call('listen', {});
    const { url: sandboxUrl, apiKey } = await sandbox.call('start', {
      reviewDelayMs: options.reviewDelayMs ?? 0,
      ...(webhookSecret ? { webhookUrl: `${appUrl}/identity/webhook`, webhookSecret } : {}),
      ...options.sandbox,
    });
    proxy = options.countCalls ? await startFaultProxy({ target: sandboxUrl }) : undefined;
    await app.call('configure', {
      upstreamUrl: proxy?.url ?? sandboxUrl,
      apiKey,
      ...(webhookSecret ? { webhookSecret } : {}),
      ...options.app,
    });
    return { appUrl, sandboxUrl, apiKey, proxy, app, sandbox, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
