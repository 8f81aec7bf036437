import { generateWebhookSecret } from '@verify-kit/client';
import { type FaultProxy, startFaultProxy } from '@verify-kit/testkit';
import type { AppConfig } from './app.js';
import type { AppCommands } from './app-process.js';
import { type Child, startChild } from './child.js';
import type { SandboxCommands } from './sandbox-process.js';

export interface StackOptions {
  /** The sandbox's automatic review time. Default 0. */
  reviewDelayMs?: number;
  /** Signed webhooks from the sandbox to the (first) app. Default false. */
  webhooks?: boolean;
  /** Between the sandbox's webhooks and the first app, e.g. a clock of its answers (webhook-clock.ts). */
  webhookProxy?: (appUrl: string) => Promise<{ url: string; close(): Promise<void> }>;
  /** A proxy between the kit and the sandbox that counts every upstream call. Default false. */
  countCalls?: boolean;
  /** The sandbox's limit on the key: 429 with Retry-After beyond `requests` a window. Default none. */
  rateLimit?: { requests: number; windowMs: number };
  /** Instances of the app, each its own process, configured alike (share a Redis to be one site). Default 1. */
  instances?: number;
  app?: Omit<AppConfig, 'upstreamUrl' | 'apiKey' | 'webhookSecret'>;
}

/** The sandbox and the integrator's app, each its own process (honest memory figures), wired together. */
export interface Stack {
  /** The first app's; `appUrls` has every instance's. */
  appUrl: string;
  appUrls: string[];
  sandboxUrl: string;
  apiKey: string;
  proxy: FaultProxy | undefined;
  app: Child<AppCommands>;
  sandbox: Child<SandboxCommands>;
  stop(): Promise<void>;
}

const startSandbox = () => startChild<SandboxCommands>(new URL('./sandbox-process.ts', import.meta.url));

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const apps = Array.from({ length: options.instances ?? 1 }, () =>
    startChild<AppCommands>(new URL('./app-process.ts', import.meta.url)),
  );
  const sandbox = startSandbox();
  const closers: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    await Promise.allSettled([...apps, sandbox].map((child) => child.stop()));
    for (const close of closers) await close().catch(() => undefined);
  };
  try {
    const webhookSecret = options.webhooks ? generateWebhookSecret() : undefined;
    const appUrls = await Promise.all(apps.map(async (app) => (await app.call('listen', {})).url));
    const webhookProxy = webhookSecret ? await options.webhookProxy?.(appUrls[0]!) : undefined;
    if (webhookProxy) closers.push(() => webhookProxy.close());
    const { url: sandboxUrl, apiKey } = await sandbox.call('start', {
      reviewDelayMs: options.reviewDelayMs ?? 0,
      ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
      ...(webhookSecret
        ? { webhookUrl: `${webhookProxy?.url ?? appUrls[0]}/identity/webhook`, webhookSecret }
        : {}),
    });
    const proxy = options.countCalls ? await startFaultProxy({ target: sandboxUrl }) : undefined;
    if (proxy) closers.push(() => proxy.close());
    const config = {
      upstreamUrl: proxy?.url ?? sandboxUrl,
      apiKey,
      ...(webhookSecret ? { webhookSecret } : {}),
      ...options.app,
    };
    await Promise.all(apps.map((app) => app.call('configure', config)));
    return { appUrl: appUrls[0]!, appUrls, sandboxUrl, apiKey, proxy, app: apps[0]!, sandbox, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** `run` on a stack started for it, stopped after, whatever happens. */
export async function withStack<T>(options: StackOptions, run: (stack: Stack) => Promise<T>): Promise<T> {
  const stack = await startStack(options);
  try {
    return await run(stack);
  } finally {
    await stack.stop();
  }
}

/** The sandbox alone, its own process, for a benchmark that brings its own app or none: `run`, then stopped. */
export async function withSandbox<T>(
  run: (sandbox: { url: string; apiKey: string }) => Promise<T>,
): Promise<T> {
  const sandbox = startSandbox();
  try {
    return await run(await sandbox.call('start', { reviewDelayMs: 0 }));
  } finally {
    await sandbox.stop();
  }
}
