import { request } from 'undici';

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

/** Every response any Browser saw, for the "the key never reaches a browser" checks. */
export const transcript: RecordedResponse[] = [];

/**
 * A browser stand-in over real HTTP: keeps cookies (name -> value), sends same-origin Fetch
 * Metadata by default, records every response.
 */
export class Browser {
  /** `cookies`: a jar shared with another Browser, e.g. the same person through another instance. */
  constructor(
    readonly origin: string,
    readonly cookies = new Map<string, string>(),
  ) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async fetch<T = unknown>(
    method: string,
    path: string,
    options: {
      headers?: Record<string, string>;
      body?: string | Buffer;
      json?: unknown;
      signal?: AbortSignal;
    } = {},
  ): Promise<BrowserResponse<T>> {
    const headers: Record<string, string> = { 'sec-fetch-site': 'same-origin', ...options.headers };
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader;
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
    });
    const text = await res.body.text();
    const setCookie = res.headers['set-cookie'];
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1).trim());
    }
    const recorded: RecordedResponse = { method, path, status: res.statusCode, headers: res.headers, text };
    transcript.push(recorded);
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
}
