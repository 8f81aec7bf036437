import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { sessionOf } from '../bindings/binding.js';
import type { Owner } from '../bindings/bindings.js';
import { ERROR_CODE, kitError } from '../shared/errors.js';
import { addressOf, type RateLimits } from './rate-limits.js';

type WithBrowser = { verifyKitClient?: unknown };

/**
 * One `POST /session`'s place in the creation limits, taken when the request arrives, before any
 * await: its address (gone from the socket once the client resets the connection) and the random
 * id its browser keeps in its session. It only reads the session until a creation is counted: a
 * refused request leaves no session behind.
 */
export class CreationTicket {
  readonly address: string;
  readonly #browser: string | undefined;

  constructor(
    private readonly req: Request,
    private readonly res: Response,
  ) {
    this.address = addressOf(req);
    const id = ((req as Request & { session?: WithBrowser }).session as WithBrowser | undefined)
      ?.verifyKitClient;
    this.#browser = typeof id === 'string' ? id : undefined;
  }

  /**
   * Refuses at once (429) when the address or this browser is already at its limit; counts nothing.
   * A client already gone (its socket closed before the route ran, its address with it) is refused
   * before any count: nothing is created for it.
   */
  async check(limits: RateLimits): Promise<void> {
    this.#assertPresent();
    const clients = this.#browser === undefined ? [] : [`browser:${this.#browser}`];
    await limits.check({ address: this.address, clients });
  }

  /**
   * Right before the upstream call: counts the creation under the address, the browser and the
   * account; nothing is created for a client that is already gone.
   */
  async take(limits: RateLimits, owner: Owner): Promise<void> {
    // A reset the kernel already has shows on the socket only once the event loop reads it: the
    // route may have come this far on promises alone.
    await new Promise((resolve) => setImmediate(resolve));
    this.#assertPresent();
    const browser = this.#browser ?? randomUUID();
    const clients = [`browser:${browser}`];
    if (owner.accountId !== undefined) clients.push(`account:${owner.accountId}`);
    await limits.take({ address: this.address, clients });
    this.#assertPresent();
    // The id survives the session's moves, so a script that keeps its cookies is counted too.
    (sessionOf(this.req) as WithBrowser).verifyKitClient = browser;
  }

  #assertPresent(): void {
    const socket = this.req.socket as Request['socket'] | null | undefined;
    // A TCP socket whose peer has no address any more was reset, even where Node has not yet
    // marked it destroyed (Node 24 notices later); a Unix socket never has a port or a peer address.
    const reset = socket?.localPort !== undefined && socket.remoteAddress === undefined;
    if (!this.res.destroyed && socket?.destroyed === false && !reset) return;
    // Nobody reads this answer; a tab that joined the creation asks again.
    const error = kitError(
      ERROR_CODE.SESSION_CREATION_IN_PROGRESS,
      'the client left before the verification was created',
    );
    throw Object.assign(error, { retryAfterSeconds: 1 });
  }
}
