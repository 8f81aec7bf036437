import { ERROR_CODES, isVerifyKitError } from '@verify-kit/client/fetch';
import { LOCALES, PHASE, type Phase } from '@verify-kit/protocol';
import { z } from 'zod';
import type { VerificationBinding } from '../bindings/binding.js';
import type { Owner } from '../bindings/bindings.js';
import type { KitRequest } from '../bindings/kit-request.js';
import { maskContact } from '../creation/mask-contact.js';
import type { SendLinkContact } from '../creation/send-link.js';
import { CreationTicket } from '../limits/creation-ticket.js';
import { ERROR_CODE, kitError } from '../shared/errors.js';
import { sha256Base64Url } from '../shared/sha256.js';
import type { Found, KitCore } from '../wiring/core.js';
import { type Answer, errorAnswer, jsonAnswer } from './answer.js';
import { sessionBody } from './session-body.js';

const SessionRequestSchema = z.strictObject({
  restart: z.boolean().optional(),
  locale: z.enum(LOCALES).optional(),
  // The channel only: the address is the one the app vouches for (send-link.ts), never the browser's.
  sendTo: z.strictObject({ channel: z.enum(['email', 'sms']) }).optional(),
  holder: z
    .string()
    .regex(/^[\w-]{16,64}$/)
    .optional(),
});
type SessionRequest = z.output<typeof SessionRequestSchema>;
export const SESSION_BODY_LIMIT_BYTES = 4 * 1024;

/** What the shell knows of a `POST /session` besides the KitRequest. */
export interface SessionInput {
  /** From another site (request-guards.ts isCrossSite). */
  crossSite: boolean;
  /** Content-Type is JSON (request-guards.ts isJsonContentType). */
  json: boolean;
  /** The body as JSON, at most SESSION_BODY_LIMIT_BYTES (413 beyond); `{}` when empty. */
  readJson(): Promise<unknown>;
  /** Where the routes answer: the QR image's URL is under it. */
  mountPath: string;
}

/** Phases a restart must not throw away: a decision, or a document somebody is checking. */
const KEPT_ON_RESTART: readonly Phase[] = [PHASE.APPROVED, PHASE.IN_REVIEW, PHASE.IN_MANUAL_REVIEW];

async function parseRequest(core: KitCore, input: SessionInput): Promise<SessionRequest> {
  core.assertOpen();
  if (input.crossSite) {
    throw kitError(ERROR_CODE.CROSS_SITE_REQUEST, 'cross-site requests may not start a verification');
  }
  if (!input.json) {
    throw kitError(ERROR_CODE.UNSUPPORTED_MEDIA_TYPE, 'send Content-Type: application/json');
  }
  const parsed = SessionRequestSchema.safeParse(await input.readJson());
  if (!parsed.success) {
    throw kitError(
      ERROR_CODE.INVALID_BODY,
      'the body must be {} or { "restart"?: true, "locale"?: "en" | "tr" | "de" | "ar", "sendTo"?: { "channel": "email" | "sms" }, "holder"?: "<16 to 64 of A-Z a-z 0-9 _ ->" }',
      parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
    );
  }
  const channel = parsed.data.sendTo?.channel;
  if (channel !== undefined && !core.sendLink.allows(channel)) {
    throw kitError(ERROR_CODE.SEND_LINK_NOT_ALLOWED, `this server does not send links by ${channel}`);
  }
  return parsed.data;
}

/**
 * The hash an anonymous binding keeps of the browser's holder (SessionRequestBody.holder); undefined
 * for an account (the account is the proof) or a request without one.
 */
async function holderOf(owner: Owner, request: SessionRequest): Promise<string | undefined> {
  if (owner.accountId !== undefined || request.holder === undefined) return undefined;
  // 128 bits of the hash are plenty to tell two browsers apart, and keep the cookie small.
  return (await sha256Base64Url(`verify-kit holder:${request.holder}`)).slice(0, 22);
}

/**
 * The bound verification with its status, when it is to be answered as it is (no new session).
 * Never one another browser started: a request with a holder resumes only its own (a planted cookie
 * makes nobody verify on its owner's verification).
 */
async function current(
  core: KitCore,
  req: KitRequest,
  owner: Owner,
  request: SessionRequest,
  holder: string | undefined,
): Promise<Found | undefined> {
  if (holder !== undefined && req.visitor.heldBinding()?.holder !== holder) return undefined;
  try {
    const found = await core.lookup(req, 0, owner);
    if (found.binding === undefined || found.view.phase === PHASE.EXPIRED) return undefined;
    if (found.view.phase === PHASE.APPROVED) return found; // never replaced, not even to send a link
    const restart = request.restart === true || request.sendTo !== undefined;
    return !restart || KEPT_ON_RESTART.includes(found.view.phase) ? found : undefined;
  } catch (error) {
    // The service forgot it (e.g. it was reset): start again rather than fail forever.
    if (isVerifyKitError(error, ERROR_CODES.UPSTREAM_NOT_FOUND)) return undefined;
    throw error;
  }
}

async function create(
  core: KitCore,
  req: KitRequest,
  owner: Owner,
  request: SessionRequest,
  contact: SendLinkContact | undefined,
  ticket: CreationTicket,
  holder: string | undefined,
) {
  const { locale } = request;
  const body = await sessionBody(core, req.raw, {
    ...(locale === undefined ? {} : { locale }),
    ...(contact === undefined
      ? {}
      : { contact: contact.channel === 'email' ? { email: contact.to } : { phoneNumber: contact.to } }),
  });
  // The send's points are taken here, by the creation that sends, and given back unless it went out.
  const refund =
    contact &&
    (await core.sendLink.take(req.raw, contact, { sender: senderOf(req, owner), address: ticket.address }));
  let created: Awaited<ReturnType<typeof core.client.createSession>>;
  try {
    await ticket.take(core.limits, owner);
    created = await core.client.createSession(body);
  } catch (error) {
    // Refused by a limit, or answered with an error by the service: no link went out. A timeout may
    // have sent it, so its points stay taken.
    const answered =
      isVerifyKitError(error) && (error.upstreamStatus !== undefined || !error.code.startsWith('UPSTREAM_'));
    if (refund !== undefined && answered) await refund();
    throw error;
  }
  const binding: VerificationBinding = {
    verificationSessionId: created.id,
    identificationId: created.identificationId,
    deepLink: created.deepLink,
    sessionCode: created.sessionCode,
    sessionPageLink: created.sessionPageLink,
    expiresAt:
      created.expiresAt !== undefined
        ? new Date(created.expiresAt).toISOString()
        : new Date(core.now() + (body.duration ?? 30) * 60_000).toISOString(),
    ...(holder === undefined ? {} : { holder }),
  };
  // Decision 1: a new identification is IN_AUTOMATIC_REVIEW, nothing submitted yet. Recorded before
  // the binding: a binding without its record (a store failing, a process killed in between) would
  // be resumed by the next POST /session and never tell onStatusChange anything.
  await core.events.created(owner, binding, 'IN_AUTOMATIC_REVIEW', core.now());
  core.reader.remember({ id: binding.identificationId, status: 'IN_AUTOMATIC_REVIEW' });
  // A new verification gets a new session id (anonymous): whoever knew the old one holds nothing.
  await core.bind(req, owner, binding);
  core.audit({ type: 'session.created', ...owner, identificationId: binding.identificationId });
  core.instrument?.({
    type: 'session.created',
    owner: owner.accountId === undefined ? 'anonymous' : 'account',
  });
  core.log.debug('verification session created', { identificationId: binding.identificationId });
  return binding;
}

async function answer(
  core: KitCore,
  req: KitRequest,
  input: SessionInput,
  ticket: CreationTicket,
): Promise<Answer> {
  await ticket.check(core.limits);
  const request = await parseRequest(core, input);
  const owner = await core.bindings.ownerOf(req);
  // The person's own contacts, checked, before anything changes: a refused send leaves the session as it is.
  const contacts = await core.sendLink.check(req.raw, owner);
  const contact = request.sendTo && core.sendLink.contactOn(contacts, request.sendTo.channel);
  const offers = core.sendLink.offers(contacts);
  const holder = await holderOf(owner, request);
  const found = await current(core, req, owner, request, holder);
  if (found !== undefined) {
    await core.approvedBy(req, found);
    return jsonAnswer(201, await core.sessionResponse(input.mountPath, found.binding, found.view, offers));
  }
  const joinable = owner.accountId !== undefined;
  let sent = false; // a request that joins another's creation sent nothing
  const binding = await core.creations.run(senderOf(req, owner), joinable, () => {
    sent = contact !== undefined;
    return create(core, req, owner, request, contact, ticket, holder);
  });
  const body = await core.sessionResponse(input.mountPath, binding, core.createdView(binding), offers);
  if (sent && contact !== undefined) body.sentTo = maskContact(contact);
  return jsonAnswer(201, body);
}

/** Who a creation (and its send) is counted and joined under: the account, or this browser session. */
function senderOf(req: KitRequest, owner: Owner): string {
  return owner.accountId !== undefined ? `account:${owner.accountId}` : `session:${req.sessionKey ?? 'none'}`;
}

/**
 * POST /session: starts (or resumes) the verification of this account or browser session. Call it
 * as the request arrives, before any await: its address is gone from the socket once the client
 * resets the connection.
 */
export function answerSession(core: KitCore, req: KitRequest, input: SessionInput): Promise<Answer> {
  const ticket = new CreationTicket(req);
  return answer(core, req, input, ticket).catch((error: unknown) => {
    core.logFailure(error, 'POST /session');
    return errorAnswer(error);
  });
}
