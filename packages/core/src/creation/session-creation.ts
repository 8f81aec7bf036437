import type { VerificationBinding } from '../bindings/binding.js';
import { ERROR_CODE, kitError } from '../shared/errors.js';

/**
 * Single-flight of POST /session per owner. Two tabs of one account share one creation. Two
 * requests of one anonymous browser session do not: the second is told to ask again (409) and then
 * arrives with the new session's cookies; handing it the new session would hand it to whoever
 * planted or learned the old id.
 */
export class SessionCreations {
  readonly #flights = new Map<string, Promise<VerificationBinding>>();

  /** `key`: the account or the session id; `joinable`: an account's (its proof is the sign-in). */
  async run(
    key: string,
    joinable: boolean,
    create: () => Promise<VerificationBinding>,
  ): Promise<VerificationBinding> {
    const running = this.#flights.get(key);
    if (running !== undefined) {
      if (joinable) return running;
      const error = kitError(
        ERROR_CODE.SESSION_CREATION_IN_PROGRESS,
        'this browser is already starting a verification: ask again after Retry-After',
      );
      throw Object.assign(error, { retryAfterSeconds: 1 });
    }
    const flight = create();
    this.#flights.set(key, flight);
    try {
      return await flight;
    } finally {
      if (this.#flights.get(key) === flight) this.#flights.delete(key);
    }
  }

  get size(): number {
    return this.#flights.size;
  }
}
