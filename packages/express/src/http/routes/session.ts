import { ERROR_CODES, isVerifyKitError } from '@verify-kit/client';
import { LOCALES, PHASE, type Phase } from '@verify-kit/protocol';
import type { Request, RequestHandler, Response } from 'express';
import { z } from 'zod';
import type { VerificationBinding } from '../../bindings/binding.js';
import type { Owner } from '../../bindings/bindings.js';
import type { KitRequest } from '../../bindings/kit-request.js';
import { maskContact } from '../../creation/mask-contact.js';
import type { SendLinkContact } from '../../creation/send-link.js';
import { readJson } from '../../limits/body-limit.js';
import { CreationTicket } from '../../limits/creation-ticket.js';
import { ERROR_CODE, kitError } from '../../shared/errors.js';
import { isCrossSite, isJsonContentType } from '../../shared/request-guards.js';
import type { Found, KitCore } from '../../wiring/core.js';
import { kitRequestOf } from '../express-request.js';
import { sessionBody } from './session-body.js';

const SessionRequestSchema = z.strictObject({
  restart: z.boolean().optional(),
  locale: z.enum(LOCALES).optional(),
  // The channel only: the address is the one the app vouches for (send-link.ts), never the browser's.
  sendTo: z.strictObject({ channel: z.enum(['email', 'sms']) }).optional(),
});
type SessionRequest = z.output<typeof SessionRequestSchema>;
const BODY_LIMIT_BYTES = 4 * 1024;

/** Phases a restart must not throw away: a decision, or a document somebody is checking. */
const KEPT_ON_RESTART: readonly Phase[] = [PHASE.APPROVED, PHASE.IN_REVIEW, PHASE.IN_MANUAL_REVIEW];

async function parseRequest(core: KitCore, req: Request, res: Response): Promise<SessionRequest> {
  core.assertOpen();
  if (isCrossSite(req)) {
    throw kitError(ERROR_CODE.CROSS_SITE_REQUEST, 'cross-site requests may not start a verification');
  }
  if (!isJsonContentType(req)) {
    throw kitError(ERROR_CODE.UNSUPPORTED_MEDIA_TYPE, 'send Content-Type: application/json');
  }
  const parsed = SessionRequestSchema.safeParse(await readJson(req, res, BODY_LIMIT_BYTES));
  if (!parsed.success) {
    throw kitError(
      ERROR_CODE.INVALID_BODY,
      'the body must be {} or { "restart"?: true, "locale"?: "en" | "tr" | "de" | "ar", "sendTo"?: { "channel": "email" | "sms" } }',
      parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
    );
  }
  const channel = parsed.data.sendTo?.channel;
  if (channel !== undefined && !core.sendLink.allows(channel)) {
    throw kitError(ERROR_CODE.SEND_LINK_NOT_ALLOWED, `this server does not send links by ${channel}`);
  }
  return parsed.data;
}

/** The bound verification with its status, when it is to be answered as it is (no new session). */
async function current(
  core: KitCore,
  req: KitRequest,
  owner: Owner,
  request: SessionRequest,
): Promise<Found | undefined> {
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
  req: Request,
  kreq: KitRequest,
  owner: Owner,
  request: SessionRequest,
  contact: SendLinkContact | undefined,
  ticket: CreationTicket,
) {
  const { locale } = request;
  const body = await sessionBody(core, req, {
    ...(locale === undefined ? {} : { locale }),
    ...(contact === undefined
      ? {}
      : { contact: contact.channel === 'email' ? { email: contact.to } : { phoneNumber: contact.to } }),
  });
  // The send's points are taken here, by the creation that sends, and given back unless it went out.
  const refund =
    contact &&
    (await core.sendLink.take(req, contact, { sender: senderOf(kreq, owner), address: ticket.address }));
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
  };
  // Decision 1: a new identification is IN_AUTOMATIC_REVIEW, nothing submitted yet. Recorded before
  // the binding: a binding without its record (a store failing, a process killed in between) would
  // be resumed by the next POST /session and never tell onStatusChange anything.
  await core.events.created(owner, binding, 'IN_AUTOMATIC_REVIEW', core.now());
  core.reader.remember({ id: binding.identificationId, status: 'IN_AUTOMATIC_REVIEW' });
  // A new verification gets a new session id (anonymous): whoever knew the old one holds nothing.
  await core.bindings.bind(kreq, owner, binding);
  core.audit({ type: 'session.created', ...owner, identificationId: binding.identificationId });
  core.log.debug('verification session created', { identificationId: binding.identificationId });
  return binding;
}

async function handle(
  core: KitCore,
  req: Request,
  res: Response,
  kreq: KitRequest,
  ticket: CreationTicket,
): Promise<void> {
  await ticket.check(core.limits);
  const request = await parseRequest(core, req, res);
  const owner = await core.bindings.ownerOf(kreq);
  // The person's own contacts, checked, before anything changes: a refused send leaves the session as it is.
  const contacts = await core.sendLink.check(req, owner);
  const contact = request.sendTo && core.sendLink.contactOn(contacts, request.sendTo.channel);
  const offers = core.sendLink.offers(contacts);
  const found = await current(core, kreq, owner, request);
  if (found !== undefined) {
    await core.approvedBy(kreq, found);
    res
      .status(201)
      .set('Cache-Control', 'no-store')
      .json(await core.sessionResponse(req.baseUrl, found.binding, found.view, offers));
    return;
  }
  const key = senderOf(kreq, owner);
  const joinable = owner.accountId !== undefined;
  let sent = false; // a request that joins another's creation sent nothing
  const binding = await core.creations.run(key, joinable, () => {
    sent = contact !== undefined;
    return create(core, req, kreq, owner, request, contact, ticket);
  });
  const answer = await core.sessionResponse(req.baseUrl, binding, core.createdView(binding), offers);
  if (sent && contact !== undefined) answer.sentTo = maskContact(contact);
  res.status(201).set('Cache-Control', 'no-store').json(answer);
}

/** Who a creation (and its send) is counted and joined under: the account, or this browser session. */
function senderOf(req: KitRequest, owner: Owner): string {
  return owner.accountId !== undefined ? `account:${owner.accountId}` : `session:${req.sessionKey ?? 'none'}`;
}

/** POST /session: starts (or resumes) the verification of this account or browser session. */
export function sessionRoute(core: KitCore): RequestHandler {
  return (req, res) => {
    // First, before any await: the address is gone from the socket once the client resets.
    const kreq = kitRequestOf(req, res);
    const ticket = new CreationTicket(kreq);
    handle(core, req, res, kreq, ticket).catch((error: unknown) => core.fail(res, error, 'POST /session'));
  };
}
