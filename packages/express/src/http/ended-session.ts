import type { Request } from 'express';
import type { Store } from 'express-session';

type StoredSessionRequest = Request & {
  sessionID?: unknown;
  sessionStore?: Pick<Store, 'get'>;
  session?: { save?: unknown };
};

/**
 * Whether express-session loaded this request's session from its store: the request's cookie names
 * the session's id (express-session keeps the cookie's id only for a session its store returned; a
 * new session gets a new id). `s:<id>.<signature>`, URL-encoded as express-session writes it.
 */
function loadedFromStore(req: StoredSessionRequest): req is StoredSessionRequest & { sessionID: string } {
  const id = req.sessionID;
  const cookies = req.headers.cookie;
  if (typeof id !== 'string' || id.length === 0 || cookies === undefined) return false;
  return cookies.includes(`s%3A${encodeURIComponent(id)}.`) || cookies.includes(`s:${id}.`);
}

/** Whether the store answers, cleanly, that it no longer has `id` (an error is not an answer). */
function missingFromStore(store: Pick<Store, 'get'>, id: string): Promise<boolean> {
  return new Promise((resolve) => {
    try {
      store.get(id, (error, found) => resolve(!error && (found === null || found === undefined)));
    } catch {
      resolve(false);
    }
  });
}

/**
 * Whether the session this request loaded ended while the request ran: the person signed out in
 * another tab (the app destroyed or regenerated it), or it expired. A session new in this request
 * never ended.
 */
export async function endedMeanwhile(req: Request): Promise<boolean> {
  const sreq = req as StoredSessionRequest;
  const store = sreq.sessionStore;
  return loadedFromStore(sreq) && typeof store?.get === 'function' && missingFromStore(store, sreq.sessionID);
}

const guarded = new WeakSet<object>();

/**
 * The kit wrote to the session: express-session will save it when the response ends. If the session
 * ended meanwhile, that save would bring it back under its old id, with everything in it (a person
 * who signed out in another tab is signed in again). This session's save first asks the store
 * whether the id is still there, and writes nothing when it is gone. Between that read and the write
 * a sign-out can still slip in: a store offers no conditional write to close it.
 */
export function keepEndedSessionEnded(req: Request): void {
  const sreq = req as StoredSessionRequest;
  const session = sreq.session;
  if (session === undefined || guarded.has(session) || !loadedFromStore(sreq)) return;
  const save = session.save;
  if (typeof save !== 'function') return;
  const id = sreq.sessionID;
  guarded.add(session);
  // Not enumerable: express-session serializes and hashes the session's own enumerable properties.
  Object.defineProperty(session, 'save', {
    configurable: true,
    writable: true,
    value(this: object, done?: (error?: unknown) => void) {
      void endedMeanwhile(req).then((ended) => {
        if (ended && sreq.sessionID === id) done?.();
        else save.call(this, done);
      });
      return this;
    },
  });
}
