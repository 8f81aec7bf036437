import http from 'node:http';
import https from 'node:https';

export interface PostResult {
  status: number;
  /** The first bytes of the answer, for the delivery log. */
  body: string;
}

const MAX_KEPT_BODY = 500;

/** A keep-alive agent for one receiver; its owner destroys it on close, so no socket outlives it. */
export function keepAliveAgent(url: string): http.Agent {
  const options = { keepAlive: true, maxSockets: 64 };
  return new URL(url).protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
}

/** POSTs once through `agent`; rejects on network errors. */
export function postOnce(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  signal: AbortSignal,
  agent: http.Agent,
): Promise<PostResult> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const lib = target.protocol === 'https:' ? https : http;
    const req = lib.request(
      target,
      {
        method: 'POST',
        agent,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
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
