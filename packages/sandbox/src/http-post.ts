import http from 'node:http';
import https from 'node:https';

export interface PostResult {
  status: number;
  /** The first bytes of the answer, for the delivery log. */
  body: string;
}

const MAX_KEPT_BODY = 500;

/** POSTs once on a fresh connection (no pooled sockets outlive the sandbox); rejects on network errors. */
export function postOnce(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<PostResult> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const lib = target.protocol === 'https:' ? https : http;
    const req = lib.request(
      target,
      {
        method: 'POST',
        agent: false,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)), connection: 'close' },
        timeout: timeoutMs,
        signal,
      },
      (res) => {
        let kept = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (kept.length < MAX_KEPT_BODY) kept += chunk.slice(0, MAX_KEPT_BODY - kept.length);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: kept }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}
