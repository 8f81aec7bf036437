import { CookieJar } from '@verify-kit/testkit';
import { type Dispatcher, request } from 'undici';

export interface Answer<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: T | undefined;
}

export interface FetchOptions {
  json?: unknown;
  headers?: Record<string, string>;
  /** Per request; default 45 s (a long-poll holds up to 30 s). */
  timeoutMs?: number;
}

/**
 * A simulated browser for one user on one site: its own cookie jar, same-origin Fetch Metadata,
 * real HTTP through a shared undici dispatcher.
 */
export class SimulatedBrowser {
  readonly jar = new CookieJar();

  constructor(
    readonly origin: string,
    private readonly dispatcher: Dispatcher,
  ) {}

  async fetch<T = unknown>(
    method: 'GET' | 'POST',
    path: string,
    options: FetchOptions = {},
  ): Promise<Answer<T>> {
    const headers: Record<string, string> = {
      'sec-fetch-site': 'same-origin',
      accept: 'application/json',
      ...options.headers,
    };
    const cookie = this.jar.header();
    if (cookie !== undefined) headers.cookie = cookie;
    let body: string | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = 'application/json';
    }
    const timeoutMs = options.timeoutMs ?? 45_000;
    const response = await request(`${this.origin}${path}`, {
      method,
      headers,
      body,
      dispatcher: this.dispatcher,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.body.text();
    this.jar.store(response.headers['set-cookie']);
    let json: T | undefined;
    try {
      json = text === '' ? undefined : (JSON.parse(text) as T);
    } catch {
      json = undefined;
    }
    return { status: response.statusCode, headers: response.headers, text, json };
  }

  get<T = unknown>(path: string, options?: FetchOptions): Promise<Answer<T>> {
    return this.fetch<T>('GET', path, options);
  }

  post<T = unknown>(path: string, json: unknown = {}, options: FetchOptions = {}): Promise<Answer<T>> {
    return this.fetch<T>('POST', path, { ...options, json });
  }
}
