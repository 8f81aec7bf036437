import type { BrowserContext, Response } from '@playwright/test';

/**
 * Listens to every response a browser context receives (pages, tabs, frames, fetches) and looks
 * for the secrets in its URL, headers and body.
 */
export class LeakWatch {
  readonly #secrets: string[];
  readonly #pending: Promise<void>[] = [];
  readonly #leaks: string[] = [];
  #checked = 0;

  constructor(context: BrowserContext, secrets: readonly string[]) {
    this.#secrets = [...secrets];
    context.on('response', (response) => this.#pending.push(this.#check(response)));
  }

  /** Another secret to look for (e.g. the API key of a second demo started by one test). */
  addSecret(secret: string): void {
    this.#secrets.push(secret);
  }

  get checked(): number {
    return this.#checked;
  }

  /** Waits for the checks of every response seen; returns what leaked, if anything. */
  async settle(): Promise<string[]> {
    await Promise.allSettled(this.#pending);
    return [...this.#leaks];
  }

  async #check(response: Response): Promise<void> {
    const where = `${response.request().method()} ${response.url()} (${response.status()})`;
    this.#find(response.url(), `${where}: URL`);
    const headers = await response.allHeaders().catch(() => ({}) as Record<string, string>);
    for (const [name, value] of Object.entries(headers))
      this.#find(`${name}: ${value}`, `${where}: header ${name}`);
    // Redirects and aborted long-polls have no body to read; everything else is checked.
    const body = await response.body().catch(() => undefined);
    if (body !== undefined) this.#find(body.toString('latin1'), `${where}: body`);
    this.#checked += 1;
  }

  #find(text: string, where: string): void {
    for (const secret of this.#secrets) {
      if (text.includes(secret)) this.#leaks.push(where);
    }
  }
}
