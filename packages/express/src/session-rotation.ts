import { VerifyKitError } from '@verify-kit/client';
import type { Request } from 'express';
import type { SessionData, Store } from 'express-session';
import { type KitSession, sessionOf } from './binding.js';
import { KIT_ERROR_CODES } from './errors.js';
import { BoundedMap } from './lru.js';

export interface Rotated {
  sessionId: string;
  /** The new session as a store would hold it (JSON), for requests that adopt it. */
  data: SessionData;
}

type SessionRequest = Request & { sessionID: string; sessionStore?: Store; session: KitSession };

function callback(run: (done: (err?: unknown) => void) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    run((err) => (err ? reject(err) : resolve()));
  });
}

/**
 * Regenerates the session id, keeping the session's data (session fixation). Concurrent requests
 * that loaded the same old session wait for the one regeneration and adopt the new session, so every
 * response carries the new cookie and the old id is never saved again by one of them.
 */
export class SessionRotator {
  // Old id -> the regeneration; kept a while for long-polls that loaded the old session earlier.
  readonly #rotations = new BoundedMap<string, Promise<Rotated>>(10_000, 120_000);

  /** false when the session middleware cannot regenerate (not express-session): nothing to do. */
  canRotate(req: Request): boolean {
    const session = sessionOf(req) as Partial<KitSession>;
    return typeof session.regenerate === 'function' && typeof session.save === 'function';
  }

  /** Regenerates once per old id; `patch` edits the new session's data before it is saved. */
  async rotate(req: Request, patch: (session: KitSession) => void): Promise<void> {
    if (!this.canRotate(req)) {
      patch(sessionOf(req));
      return;
    }
    const sreq = req as SessionRequest;
    const oldId = sreq.sessionID;
    const pending = this.#rotations.get(oldId);
    if (pending !== undefined) {
      this.#adopt(sreq, await pending);
      return;
    }
    const rotation = this.#regenerate(sreq, patch);
    this.#rotations.set(oldId, rotation);
    rotation.catch(() => this.#rotations.delete(oldId));
    await rotation;
  }

  /**
   * Moves the session of this one request to a new id (a new binding is created). Returns the new
   * session for concurrent requests of the old one to adopt; undefined when it cannot regenerate.
   *
   * Unlike an approval's rotation, the old session is not destroyed: it is saved without the kit's
   * binding. The integrator's data (a sign-in) stays on it, so a request of the same browser still
   * in flight with the old cookie is not signed out; the verification lives only under the new id.
   */
  async regenerate(req: Request, patch: (session: KitSession) => void): Promise<Rotated | undefined> {
    if (!this.canRotate(req)) {
      patch(sessionOf(req));
      return undefined;
    }
    const sreq = req as SessionRequest;
    const generate = sreq.sessionStore?.generate;
    if (typeof generate !== 'function') return this.#regenerate(sreq, patch);
    const kept = this.#data(sreq);
    return this.#saving(async () => {
      delete sreq.session.verifyKit;
      await callback((done) => sreq.session.save(done));
      generate.call(sreq.sessionStore, sreq);
      Object.assign(sreq.session, kept);
      patch(sreq.session);
      await callback((done) => sreq.session.save(done));
      return this.#rotated(sreq);
    });
  }

  /** This request loaded the old session of `rotated`: continue as the new one (and send its cookie). */
  adopt(req: Request, rotated: Rotated): void {
    this.#adopt(req as SessionRequest, rotated);
  }

  async #regenerate(req: SessionRequest, patch: (session: KitSession) => void): Promise<Rotated> {
    const kept = this.#data(req);
    return this.#saving(async () => {
      await callback((done) => req.session.regenerate(done));
      Object.assign(req.session, kept);
      patch(req.session);
      await callback((done) => req.session.save(done));
      return this.#rotated(req);
    });
  }

  /** The session's data without its cookie, to carry over to a new id. */
  #data(req: SessionRequest): Record<string, unknown> {
    const kept: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(req.session)) {
      if (key !== 'cookie') kept[key] = value;
    }
    return kept;
  }

  async #saving(run: () => Promise<Rotated>): Promise<Rotated> {
    try {
      return await run();
    } catch (cause) {
      throw new VerifyKitError(
        KIT_ERROR_CODES.SESSION_STORE_ERROR,
        'the session store failed to save the session',
        {
          cause,
        },
      );
    }
  }

  #rotated(req: SessionRequest): Rotated {
    return { sessionId: req.sessionID, data: JSON.parse(JSON.stringify(req.session)) as SessionData };
  }

  #adopt(req: SessionRequest, rotated: Rotated): void {
    const store = req.sessionStore;
    if (store === undefined || typeof store.createSession !== 'function') return;
    // What express-session's own Session#reload does: the new id, then a Session built from stored data.
    req.sessionID = rotated.sessionId;
    store.createSession(req, structuredClone(rotated.data));
  }
}
