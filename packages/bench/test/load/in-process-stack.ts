import { randomBytes } from 'node:crypto';
import type { Logger } from '@verify-kit/express';
import { startSandbox } from '@verify-kit/sandbox';
import { Agent } from 'undici';
import { type FaultProxy, type FaultProxyOptions, startFaultProxy } from '../../src/load/fault-proxy.js';
import { GrantJudge } from '../../src/load/grant-judge.js';
import { type KitApp, startKitApp } from '../../src/load/kit-app.js';
import { SandboxDirect } from '../../src/load/sandbox-direct.js';

export interface InProcessStack {
  apiKey: string;
  sandboxUrl: string;
  proxy: FaultProxy;
  app: KitApp;
  sandbox: SandboxDirect;
  judge: GrantJudge;
  kitDispatcher: Agent;
  /** Every line the kit logged. */
  logLines: string[];
  close(): Promise<void>;
}

/**
 * The whole chain in this process, on 127.0.0.1 and random ports:
 * users -> kit app -> fault proxy -> sandbox, and the sandbox's signed webhooks -> kit.
 */
export async function startInProcessStack(
  proxyOptions: FaultProxyOptions,
  kit: { timeoutMs?: number; retries?: number; pollIntervalMs?: number } = {},
  reviewDelayMs = 20,
): Promise<InProcessStack> {
  const apiKey = `sk_load_${randomBytes(18).toString('base64url')}`;
  const webhookSecret = `whsec_${randomBytes(24).toString('base64')}`;
  const logLines: string[] = [];
  const write = (level: string) => (message: string, meta?: Record<string, unknown>) => {
    logLines.push(`${level} ${message} ${meta === undefined ? '' : JSON.stringify(meta)}`);
  };
  const logger: Logger = {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
  };

  const proxy = await startFaultProxy(proxyOptions);
  const app = await startKitApp({ upstreamUrl: proxy.url, apiKey, webhookSecret, logger, ...kit });
  const sandboxServer = await startSandbox({
    apiKey,
    reviewDelayMs,
    webhookUrl: `${app.url}/identity/webhook`,
    webhookSecret,
    webhookRetryBaseMs: 50,
    webhookMaxAttempts: 2,
  });
  proxy.setTarget(sandboxServer.url);
  const keepAlive = { keepAliveTimeout: 10_000, keepAliveMaxTimeout: 10_000 };
  const directDispatcher = new Agent({ connections: 64, keepAliveTimeout: 2000, keepAliveMaxTimeout: 2000 });
  const kitDispatcher = new Agent({ connections: 256, ...keepAlive });
  const sandbox = new SandboxDirect(sandboxServer.url, apiKey, directDispatcher);

  return {
    apiKey,
    sandboxUrl: sandboxServer.url,
    proxy,
    app,
    sandbox,
    judge: new GrantJudge(sandbox),
    kitDispatcher,
    logLines,
    async close() {
      await app.close();
      await sandboxServer.close();
      await proxy.close();
      await Promise.all([directDispatcher.close(), kitDispatcher.close()]);
    },
  };
}
