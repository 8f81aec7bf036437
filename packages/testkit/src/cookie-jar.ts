/**
 * One browser's cookies for one origin: enough of RFC 6265 for the kit and express-session
 * (name=value, replaced on Set-Cookie, removed by Max-Age<=0 or an Expires in the past).
 */
export class CookieJar {
  readonly #cookies = new Map<string, string>();

  /** The Cookie header to send, or undefined when the jar is empty. */
  header(): string | undefined {
    if (this.#cookies.size === 0) return undefined;
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** Takes the Set-Cookie header(s) of a response. */
  store(setCookie: string | string[] | undefined): void {
    const lines = Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [setCookie];
    for (const line of lines) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      if (at <= 0) continue;
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (expired(attributes)) this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }

  get(name: string): string | undefined {
    return this.#cookies.get(name);
  }

  set(name: string, value: string): void {
    this.#cookies.set(name, value);
  }

  delete(name: string): void {
    this.#cookies.delete(name);
  }

  names(): string[] {
    return [...this.#cookies.keys()];
  }

  /** A copy: the same person's cookies in another browser (a stolen or planted cookie). */
  clone(): CookieJar {
    const copy = new CookieJar();
    for (const [name, value] of this.#cookies) copy.set(name, value);
    return copy;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.#cookies.entries();
  }

  get size(): number {
    return this.#cookies.size;
  }
}

function expired(attributes: string[]): boolean {
  for (const attribute of attributes) {
    const at = attribute.indexOf('=');
    const key = (at === -1 ? attribute : attribute.slice(0, at)).trim().toLowerCase();
    const value = at === -1 ? '' : attribute.slice(at + 1).trim();
    if (key === 'max-age' && Number(value) <= 0) return true;
    if (key === 'expires' && Date.parse(value) <= Date.now()) return true;
  }
  return false;
}
