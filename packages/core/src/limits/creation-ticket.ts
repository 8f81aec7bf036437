import type { Owner } from '../bindings/bindings.js';
import type { KitRequest } from '../bindings/kit-request.js';
import { ERROR_CODE, kitError } from '../shared/errors.js';
import type { RateLimits } from './rate-limits.js';

/**
 * One `POST /session`'s place in the creation limits, taken when the request arrives, before any
 * await: its address (gone from the socket once the client resets the connection) and the random
 * id its browser keeps in its session. It only reads the session until a creation is counted: a
 * refused request leaves no session behind.
 */
export class CreationTicket {
  readonly address: string;
  readonly #browser: string | undefined;

  constructor(private readonly req: KitRequest) {
    this.address = req.address;
    this.#browser = req.visitor.clientId();
  }

  /**
   * Refuses at once (429) when the address or this browser is already at its limit; counts nothing.
   * A client already gone (its socket closed before the route ran, its address with it) is refused
   * before any count: nothing is created for it.
   */
  async check(limits: RateLimits): Promise<void> {
    await this.#assertPresent();
    const clients = this.#browser === undefined ? [] : [`browser:${this.#browser}`];
    await limits.check({ address: this.address, clients });
  }

  /**
   * Right before the upstream call: counts the creation under the address, the browser and the
   * account; nothing is created for a client that is already gone.
   */
  async take(limits: RateLimits, owner: Owner): Promise<void> {
    await this.#assertPresent();
    const browser = this.#browser ?? crypto.randomUUID();
    const clients = [`browser:${browser}`];
    if (owner.accountId !== undefined) clients.push(`account:${owner.accountId}`);
    await limits.take({ address: this.address, clients });
    await this.#assertPresent();
    // The id survives the session's moves, so a script that keeps its cookies is counted too.
    this.req.visitor.setClientId(browser);
  }

  async #assertPresent(): Promise<void> {
    if (await this.req.present()) return;
    // Nobody reads this answer; a tab that joined the creation asks again.
    const error = kitError(
      ERROR_CODE.SESSION_CREATION_IN_PROGRESS,
      'the client left before the verification was created',
    );
    throw Object.assign(error, { retryAfterSeconds: 1 });
  }
}
