import { randomBytes } from 'node:crypto';
import { Agent } from 'undici';
import { type FaultProxy, type FaultProxyOptions, startFaultProxy } from './fault-proxy.js';
import { GrantJudge } from './grant-judge.js';
import { ChildHandle } from './ipc.js';
import type { KitProcessConfig, KitProcessInfo } from './kit-process.js';
import { SandboxDirect } from './sandbox-direct.js';
import type { SandboxProcessConfig, SandboxProcessInfo } from './sandbox-process.js';

export interface StackOptions {
  reviewDelayMs: number;
  webhooks: boolean;
  sessionMaxAgeMs: number;
  concurrency: number;
  proxy: FaultProxyOptions;
  kit?: { timeoutMs?: number; pollIntervalMs?: number };
}

export interface LoadStack {
  apiKey: string;
  /** Between the kit and the sandbox: counts every upstream call (and injects faults if asked). */
  proxy: FaultProxy;
  kit: ChildHandle<KitProcessInfo>;
  sandboxProcess: ChildHandle<SandboxProcessInfo>;
  sandbox: SandboxDirect;
  judge: GrantJudge;
  kitDispatcher: Agent;
  close(): Promise<void>;
}

/**
 * Two child processes (honest memory figures for each) and the proxy in this one:
 * users -> kit app (child) -> proxy -> sandbox (child); the sandbox's webhooks -> kit.
 */
export async function startLoadStack(options: StackOptions): Promise<LoadStack> {
  const apiKey = `sk_load_${randomBytes(18).toString('base64url')}`;
  const webhookSecret = options.webhooks ? `whsec_${randomBytes(24).toString('base64')}` : undefined;
  const proxy = await startFaultProxy(options.proxy);
  const kitConfig: KitProcessConfig = {
    upstreamUrl: proxy.url,
    apiKey,
    sessionMaxAgeMs: options.sessionMaxAgeMs,
    ...(webhookSecret === undefined ? {} : { webhookSecret }),
    ...options.kit,
  };
  const kit = await ChildHandle.start<KitProcessInfo>(
    'kit',
    new URL('./kit-process.ts', import.meta.url),
    kitConfig,
  );
  const sandboxConfig: SandboxProcessConfig = {
    apiKey,
    reviewDelayMs: options.reviewDelayMs,
    ...(webhookSecret === undefined ? {} : { webhookUrl: `${kit.info.url}/identity/webhook`, webhookSecret }),
  };
  const sandboxProcess = await ChildHandle.start<SandboxProcessInfo>(
    'sandbox',
    new URL('./sandbox-process.ts', import.meta.url),
    sandboxConfig,
  );
  proxy.setTarget(sandboxProcess.info.url);
  // Idle sockets to the kit are closed by this side long before the kit's 65 s (no reuse race).
  const keepAlive = { keepAliveTimeout: 10_000, keepAliveMaxTimeout: 10_000 };
  const kitDispatcher = new Agent({ connections: options.concurrency * 3 + 16, ...keepAlive });
  // The sandbox closes idle sockets after Node's default 5 s: this side lets go after 2 s.
  const directDispatcher = new Agent({
    connections: options.concurrency * 2 + 16,
    keepAliveTimeout: 2000,
    keepAliveMaxTimeout: 2000,
  });
  const sandbox = new SandboxDirect(sandboxProcess.info.url, apiKey, directDispatcher);
  return {
    apiKey,
    proxy,
    kit,
    sandboxProcess,
    sandbox,
    judge: new GrantJudge(sandbox),
    kitDispatcher,
    async close() {
      await Promise.allSettled([kitDispatcher.close(), directDispatcher.close()]);
      await Promise.allSettled([kit.close(), sandboxProcess.close()]);
      await proxy.close();
    },
  };
}
