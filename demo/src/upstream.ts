import { generateWebhookSecret } from '@verify-kit/client';
import { startSandbox } from '@verify-kit/sandbox';

/** Where the kit sends its requests: the embedded sandbox (default) or a real service. */
export interface Upstream {
  baseUrl: string;
  apiKey: string;
  webhookSecret: string | undefined;
  /** The embedded sandbox, when the demo runs one: its simulator is shown beside the widget. */
  sandbox: SandboxHandle | undefined;
  close(): Promise<void>;
}

export type SandboxHandle = Awaited<ReturnType<typeof startSandbox>>;

export interface RemoteUpstreamOptions {
  baseUrl: string;
  apiKey: string;
  webhookSecret?: string;
}

export interface EmbeddedSandboxOptions {
  /** Where the sandbox delivers its signed webhooks: the demo's /identity/webhook. */
  webhookUrl: string;
  host: string;
  reviewDelayMs?: number;
}

export async function startEmbeddedSandbox(options: EmbeddedSandboxOptions): Promise<Upstream> {
  const webhookSecret = generateWebhookSecret();
  const sandbox = await startSandbox({
    port: 0,
    host: options.host,
    webhookUrl: options.webhookUrl,
    webhookSecret,
    ...(options.reviewDelayMs === undefined ? {} : { reviewDelayMs: options.reviewDelayMs }),
  });
  return {
    baseUrl: sandbox.url,
    apiKey: sandbox.apiKey,
    webhookSecret,
    sandbox,
    close: () => sandbox.close(),
  };
}

export function remoteUpstream(options: RemoteUpstreamOptions): Upstream {
  return {
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    webhookSecret: options.webhookSecret,
    sandbox: undefined,
    close: async () => {},
  };
}
