import type { Request } from 'express';
import { type KitSession, sessionOf, type VerificationBinding } from './binding.js';
import { BoundedMap } from './lru.js';
import type { Rotated, SessionRotator } from './session-rotation.js';

const SETTLED_GRACE_MS = 10_000;

interface Creation {
  binding: VerificationBinding;
  /** The regenerated session; undefined when the session middleware cannot regenerate. */
  rotated: Rotated | undefined;
}

/**
 * Single-flight of POST /session per browser session: two tabs asking at the same moment share one
 * upstream session instead of orphaning one. Keyed by the express-session id the requests loaded;
 * the first runs the creation, the others wait for it and continue as the regenerated session. In
 * process only: behind a load balancer, concurrent tabs on two instances still create two.
 */
export class SessionCreations {
  // Old session id -> its creation. Kept a little after it settles, for a request that loaded the old
  // session before it was regenerated but reached here after (a slow body, say); then forgotten.
  readonly #flights = new BoundedMap<string, Promise<Creation>>(10_000, SETTLED_GRACE_MS);

  constructor(private readonly rotator: SessionRotator) {}

  /** The creation this request's browser session is running, if any (a new request should join it). */
  pending(req: Request): Promise<Creation> | undefined {
    const key = keyOf(req);
    return key === undefined ? undefined : this.#flights.get(key);
  }

  /** Joins `flight`: this request's session becomes the created one. */
  async join(req: Request, flight: Promise<Creation>): Promise<VerificationBinding> {
    const { binding, rotated } = await flight;
    if (rotated !== undefined) this.rotator.adopt(req, rotated);
    else bind(sessionOf(req), binding);
    return binding;
  }

  /**
   * Creates the upstream session with `create` and binds it to a regenerated session, unless a
   * creation of this browser session is already running: then joins it.
   */
  async create(req: Request, create: () => Promise<VerificationBinding>): Promise<VerificationBinding> {
    const key = keyOf(req);
    const running = key === undefined ? undefined : this.#flights.get(key);
    if (running !== undefined) return this.join(req, running);
    // Registered before anything awaits, so every request of this tick joins it.
    const flight = (async (): Promise<Creation> => {
      const binding = await create();
      const rotated = await this.rotator.regenerate(req, (session) => bind(session, binding));
      return { binding, rotated };
    })();
    if (key !== undefined) this.#track(key, flight);
    return (await flight).binding;
  }

  // A method of its own so that the timer's closure holds the key and the flight, not the request.
  #track(key: string, flight: Promise<Creation>): void {
    this.#flights.set(key, flight);
    const forget = () => {
      if (this.#flights.get(key) === flight) this.#flights.delete(key);
    };
    flight.then(() => setTimeout(forget, SETTLED_GRACE_MS).unref(), forget);
  }
}

function bind(session: KitSession, binding: VerificationBinding): void {
  session.verifyKit = binding;
}

function keyOf(req: Request): string | undefined {
  const id = (req as Request & { sessionID?: unknown }).sessionID;
  return typeof id === 'string' && id.length > 0 ? id : undefined;
}
