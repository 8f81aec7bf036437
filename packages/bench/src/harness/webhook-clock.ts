import { performance } from 'node:perf_hooks';
import { startFaultProxy } from '@verify-kit/testkit';

/**
 * A pass-through proxy between the sandbox's webhooks and one kit instance, in the bench's own
 * process: it notes when the instance's 2xx answer to each identification's event arrived, on the
 * same clock (performance.now()) as the bench's requests to the other instance.
 */
export interface WebhookClock {
  url: string;
  /** When the next 2xx answer to an event about this identification arrives (performance.now()). */
  next(identificationId: string): Promise<number>;
  close(): Promise<void>;
}

export async function startWebhookClock(target: string): Promise<WebhookClock> {
  const waiting = new Map<string, (at: number) => void>();
  const proxy = await startFaultProxy({
    target,
    onAnswered({ body }, status) {
      const at = performance.now();
      const id = status >= 200 && status < 300 ? identificationOf(body) : undefined;
      const resolve = id === undefined ? undefined : waiting.get(id);
      if (id === undefined || resolve === undefined) return;
      waiting.delete(id);
      resolve(at);
    },
  });
  return {
    url: proxy.url,
    next: (identificationId) => new Promise<number>((resolve) => waiting.set(identificationId, resolve)),
    close: () => proxy.close(),
  };
}

function identificationOf(body: Buffer): string | undefined {
  try {
    const id = (JSON.parse(body.toString('utf8')) as { data?: { identificationId?: unknown } }).data
      ?.identificationId;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}
