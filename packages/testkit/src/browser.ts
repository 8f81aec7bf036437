import { type Dispatcher, request } from 'undici';
import { CookieJar } from './cookie-jar.js';

export interface RecordedResponse {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface BrowserResponse<T = unknown> extends RecordedResponse {
  json: T;
}

export interface FetchOptions {
  headers?: Record<string, string>;
  body?: string | Buffer;
  json?: unknown;
  signal?: AbortSignal;
}

/** Every response any Browser saw, for the "the key never reaches a browser" checks. */
export const transcript: RecordedResponse[] = [];

/**
 * A browser stand-in over real HTTP: a cookie jar, same-origin Fetch Metadata by default (a header
 * given as '' is not sent), a transcript of every response.
 */
export class Browser {
  /**
   * `cookies`: a jar shared with another Browser, e.g. the same person through another instance.
   * `record: false` keeps this browser's responses out of the transcript (load runs of many users).
   */
  constructor(
    readonly origin: string,
    readonly cookies = new CookieJar(),
    private readonly options: { dispatcher?: Dispatcher; record?: boolean } = {},
  ) {}

  /** The Cookie header this browser sends ('' when it has no cookie). */
  get cookieHeader(): string {
    return this.cookies.header() ?? '';
  }

  async fetch<T = unknown>(
    method: string,
    path: string,
    options: FetchOptions = {},
  ): Promise<BrowserResponse<T>> {
    const headers: Record<string, string> = { 'sec-fetch-site': 'same-origin', ...options.headers };
    const cookie = this.cookies.header();
    if (cookie !== undefined && headers.cookie === undefined) headers.cookie = cookie;
    let body = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    }
    for (const [name, value] of Object.entries(headers)) if (value === '') delete headers[name];
    const res = await request(`${this.origin}${path}`, {
      method: method as 'GET',
      headers,
      ...(body === undefined ? {} : { body }),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(this.options.dispatcher ? { dispatcher: this.options.dispatcher } : {}),
    });
    const text = await res.body.text();
    this.cookies.store(res.headers['set-cookie']);
    const recorded: RecordedResponse = { method, path, status: res.statusCode, headers: res.headers, text };
    if (this.options.record !== false) transcript.push(recorded);
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { ...recorded, json: json as T };
  }

  get<T = unknown>(path: string, headers?: Record<string, string>) {
    return this.fetch<T>('GET', path, headers ? { headers } : {});
  }

  post<T = unknown>(path: string, json: unknown = {}, headers?: Record<string, string>) {
    return this.fetch<T>('POST', path, { json, ...(headers ? { headers } : {}) });
  }

  /** A browser navigation (Accept: text/html, Sec-Fetch-Mode: navigate). */
  navigate<T = unknown>(path: string) {
    return this.get<T>(path, { accept: 'text/html', 'sec-fetch-mode': 'navigate' });
  }
}
