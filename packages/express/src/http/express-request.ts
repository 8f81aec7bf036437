import type { VerificationBinding } from '@verify-kit/core/internal/bindings/binding';
import type { KitRequest, VisitMarker, Visitor } from '@verify-kit/core/internal/bindings/kit-request';
import type {
  BeforeSend as BeforeSendOf,
  ContactOf as ContactOfOf,
} from '@verify-kit/core/internal/creation/send-link';
import { markerOf, VISIT_KEY, type VisitSession } from '@verify-kit/core/internal/decisions/visit-marker';
import { ERROR_CODE, kitError } from '@verify-kit/core/internal/shared/errors';
import { normalizeAddress } from '@verify-kit/core/internal/shared/ip-address';
import type { Request, Response } from 'express';
import { clearProof, issueProof, proves } from './binding-proof.js';
import { keepEndedSessionEnded } from './ended-session.js';
import { readSessionBinding, sessionOf } from './express-session.js';
import { moveSession } from './session-rotation.js';

/** sendLink's contactOf, given Express's request. */
export type ContactOf = ContactOfOf<Request>;
/** sendLink's beforeSend, given Express's request. */
export type BeforeSend = BeforeSendOf<Request>;

type WithClient = { verifyKitClient?: unknown };

// Session ids moving after an approval right now: a concurrent request of the same browser goes on
// with the old id (its response sets no cookie) rather than minting another.
const approving = new Set<string>();

function sessionIdOf(req: Request): string | undefined {
  const id = (req as Request & { sessionID?: unknown }).sessionID;
  return typeof id === 'string' && id.length > 0 ? id : undefined;
}

function visitSessionOf(req: Request): VisitSession | undefined {
  const session = (req as Request & { session?: unknown }).session;
  return typeof session === 'object' && session !== null ? (session as unknown as VisitSession) : undefined;
}

/**
 * The browser session as express-session holds it, proven by the binding secret's cookie. A class:
 * a gated request makes one, and its methods are not made again for each.
 */
class ExpressVisitor implements Visitor {
  constructor(
    private readonly req: Request,
    private readonly res: Response | undefined,
  ) {}

  binding(): VerificationBinding | undefined {
    const binding = readSessionBinding(this.req);
    return binding !== undefined && proves(this.req, binding.proof) ? binding : undefined;
  }

  heldBinding(): VerificationBinding | undefined {
    return readSessionBinding(this.req);
  }

  async bind(binding: VerificationBinding): Promise<void> {
    const { req, res } = this;
    if (res === undefined) throw new TypeError('binding a verification needs the response');
    const moved = await moveSession(req, (session) => {
      session.verifyKit = { ...binding, proof: issueProof(req, res, session) };
    });
    if (!moved) {
      keepEndedSessionEnded(req);
      throw kitError(
        ERROR_CODE.SESSION_ENDED,
        'the browser session ended while its verification was being created (signed out in another tab?): ask again',
      );
    }
  }

  async approve(binding: VerificationBinding, approvedAt: string): Promise<void> {
    const { req } = this;
    if (req.res?.headersSent) return;
    const oldId = sessionIdOf(req) ?? '';
    if (approving.has(oldId)) return;
    approving.add(oldId);
    try {
      const moved = await moveSession(req, (session) => {
        session.verifyKit = { ...binding, approvedAt };
      });
      // A session that ended meanwhile is not moved: this request's answer stands, nothing is kept.
      if (!moved) keepEndedSessionEnded(req);
    } finally {
      approving.delete(oldId);
    }
  }

  forget(): void {
    const session = sessionOf(this.req);
    keepEndedSessionEnded(this.req);
    if (session.verifyKit !== undefined) delete session.verifyKit;
    if (this.res !== undefined && !this.res.headersSent) clearProof(this.req, this.res);
  }

  visit(): VisitMarker | undefined {
    return markerOf(visitSessionOf(this.req));
  }

  setVisit(marker: VisitMarker | undefined): void {
    const session = visitSessionOf(this.req);
    if (session === undefined) return;
    keepEndedSessionEnded(this.req);
    if (marker !== undefined) session[VISIT_KEY] = marker;
    else if (VISIT_KEY in session) delete session[VISIT_KEY];
  }

  clientId(): string | undefined {
    const id = (visitSessionOf(this.req) as WithClient | undefined)?.verifyKitClient;
    return typeof id === 'string' ? id : undefined;
  }

  setClientId(id: string): void {
    keepEndedSessionEnded(this.req);
    (sessionOf(this.req) as WithClient).verifyKitClient = id;
  }
}

/**
 * Whether the client is still connected. A TCP socket whose peer has no address any more was reset,
 * even where Node has not yet marked it destroyed (Node 24 notices later); a Unix socket never has a
 * port or a peer address. A reset the kernel already has shows only once the event loop reads it.
 */
async function present(req: Request, res: Response | undefined): Promise<boolean> {
  await new Promise((resolve) => setImmediate(resolve));
  const socket = req.socket as Request['socket'] | null | undefined;
  const reset = socket?.localPort !== undefined && socket.remoteAddress === undefined;
  return res?.destroyed !== true && socket?.destroyed === false && !reset;
}

/**
 * The address a request came from, read when it arrives: once the client resets the connection the
 * socket has none. Behind `trust proxy` it is Express's `req.ip`. A request whose address is gone
 * counts in one bucket shared by all such requests, never in none. An IPv6 address counts as its
 * /64: one subscriber's line or host holds a whole /64, and could rotate through it.
 */
function addressOf(req: Request): string {
  return normalizeAddress(req.ip ?? req.socket?.remoteAddress);
}

/** The engine's view of an Express request; `res` where the answer may set cookies. */
class ExpressRequest implements KitRequest {
  readonly visitor: ExpressVisitor;
  /** The session id the request came with (an approval may move the session during the request). */
  readonly sessionKey: string | undefined;
  #address: string | undefined;

  constructor(
    readonly raw: Request,
    private readonly res: Response | undefined,
  ) {
    this.visitor = new ExpressVisitor(raw, res);
    this.sessionKey = sessionIdOf(raw);
  }

  get address(): string {
    this.#address ??= addressOf(this.raw);
    return this.#address;
  }

  present(): Promise<boolean> {
    return present(this.raw, this.res);
  }
}

export function kitRequestOf(req: Request, res?: Response): KitRequest {
  return new ExpressRequest(req, res ?? req.res);
}

/** The request's header by lower-case name (the first, for a repeated one Node keeps as a list). */
export function headerOf(req: Request): (name: string) => string | undefined {
  return (name) => {
    const value = req.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
}
