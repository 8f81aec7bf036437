import type { VerificationBinding } from '../bindings/binding.js';
import type { StoredDecision } from '../bindings/binding-store.js';
import type { VisitMarker } from '../bindings/kit-request.js';
import { bindingExpiresAt } from '../bindings/retention.js';
import { RETIRED_AT } from '../decisions/stored-decision.js';
import { markerOf, VISIT_KEY } from '../decisions/visit-marker.js';

/*
 * What the anonymous visitor's sealed cookie holds (sealed-cookie.ts seals it): ids, the service's
 * links and code, the visit, and what the service last said and when. No key, no contact, no
 * personal data. Written with short names: the sealed text must stay under 1,200 bytes.
 */

/** The binding as the cookie carries it (VerificationBinding without the Express kit's proof). */
interface CarriedBinding {
  /** identificationId */
  i: string;
  /** verificationSessionId */
  w: string;
  /** deepLink */
  l: string;
  /** sessionCode */
  k: string;
  /** sessionPageLink */
  p: string;
  /** expiresAt (epoch ms) */
  e: number;
  /** approvedAt (epoch ms), once the first approval moved the visitor to a new id */
  a?: number;
  /** holder: SHA-256 of the starting browser's holder */
  h?: string;
}

/** The stored decision as the cookie carries it: the last status the kit read or received signed. */
interface CarriedDecision {
  /** status */
  s: string;
  /** at: when the read that saw it started, or when the event happened (epoch ms) */
  t: number;
  /** 1 when a verified webhook said it (a refusal that holds against lagging reads) */
  w?: 1;
  /** reReadAfterMs */
  r?: number;
}

/** The visit marker as the cookie carries it: whose visit, of which identification, last seen when. */
interface CarriedVisit {
  /** seenAt (epoch ms) */
  t: number;
  /** accountId, for an account's visit */
  a?: string;
  /** identificationId, when not the carried binding's */
  i?: string;
}

/** The cookie's contents, as the kit works with them. */
export interface Sealed {
  /** This browser's random id: the store's key for its binding (a shared store) or its retirement. */
  s?: string;
  /** The binding itself, when no shared store holds it (the cookie is the binding). */
  binding?: VerificationBinding;
  /** What the service last said of `binding`'s identification, and when. */
  decision?: StoredDecision & { status: string };
  /** The visit marker (decisions.ts). */
  v?: VisitMarker;
  /** The creation limits' random id of this browser (creation-ticket.ts). */
  c?: string;
}

const MAX_ID = 256;
const MAX_LINK = 2048;

const text = (value: unknown, max: number): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= max;
const epochMs = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
const iso = (ms: number) => new Date(ms).toISOString();
const msOf = (isoText: string) => Date.parse(isoText);

function bindingOf(value: unknown, now: number): VerificationBinding | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { i, w, l, k, p, e, a, h } = value as Partial<Record<keyof CarriedBinding, unknown>>;
  if (!text(i, MAX_ID) || !text(w, MAX_ID) || !text(l, MAX_LINK) || !text(k, 64) || !text(p, MAX_LINK)) {
    return undefined;
  }
  if (!epochMs(e) || (a !== undefined && !epochMs(a)) || (h !== undefined && !text(h, 64))) return undefined;
  const binding: VerificationBinding = {
    identificationId: i,
    verificationSessionId: w,
    deepLink: l,
    sessionCode: k,
    sessionPageLink: p,
    expiresAt: iso(e),
    ...(a === undefined ? {} : { approvedAt: iso(a) }),
    ...(h === undefined ? {} : { holder: h }),
  };
  // Kept as long as a store would keep it (retention.ts): then the visitor verifies again.
  return bindingExpiresAt(binding, undefined, now) > now ? binding : undefined;
}

function decisionOf(value: unknown): (StoredDecision & { status: string }) | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { s, t, w, r } = value as Partial<Record<keyof CarriedDecision, unknown>>;
  // RETIRED_AT is the store's own marker: a cookie never carries it.
  if (!text(s, 64) || typeof t !== 'number' || !Number.isSafeInteger(t) || t >= RETIRED_AT) return undefined;
  return {
    status: s,
    at: t,
    source: w === 1 ? 'webhook' : 'read',
    ...(typeof r === 'number' && Number.isSafeInteger(r) && r >= 0 ? { reReadAfterMs: r } : {}),
  };
}

function visitOf(value: unknown, binding: VerificationBinding | undefined): VisitMarker | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { t, a, i } = value as Partial<Record<keyof CarriedVisit, unknown>>;
  if (!epochMs(t) || (a !== undefined && !text(a, 256)) || (i !== undefined && !text(i, MAX_ID))) {
    return markerOf({ [VISIT_KEY]: value }); // a marker written before the short names
  }
  const identificationId = i ?? binding?.identificationId;
  if (identificationId === undefined) return undefined;
  return { identificationId, accountId: a ?? null, seenAt: t };
}

/** The contents of an opened cookie (outside data, though sealed by this kit): what is well formed. */
export function parseSealed(value: Record<string, unknown> | undefined, now: number): Sealed {
  if (value === undefined) return {};
  const { s, c } = value;
  const binding = bindingOf(value.b, now);
  const v = visitOf(value.v, binding);
  const decision = binding === undefined ? undefined : decisionOf(value.d);
  return {
    ...(text(s, 64) ? { s } : {}),
    ...(binding === undefined ? {} : { binding }),
    ...(decision === undefined ? {} : { decision }),
    ...(v === undefined ? {} : { v }),
    ...(typeof c === 'string' && c.length <= 64 ? { c } : {}),
  };
}

/** What is sealed: the short names. */
export function toSealable(state: Sealed): Record<string, unknown> {
  const { s, binding, decision, v, c } = state;
  const b: CarriedBinding | undefined = binding && {
    i: binding.identificationId,
    w: binding.verificationSessionId,
    l: binding.deepLink,
    k: binding.sessionCode,
    p: binding.sessionPageLink,
    e: msOf(binding.expiresAt),
    ...(binding.approvedAt === undefined ? {} : { a: msOf(binding.approvedAt) }),
    ...(binding.holder === undefined ? {} : { h: binding.holder }),
  };
  const d: CarriedDecision | undefined = decision && {
    s: decision.status,
    t: decision.at,
    ...(decision.source === 'webhook' ? { w: 1 as const } : {}),
    ...(decision.reReadAfterMs === undefined ? {} : { r: decision.reReadAfterMs }),
  };
  const visit: CarriedVisit | undefined = v && {
    t: v.seenAt,
    ...(v.accountId === null ? {} : { a: v.accountId }),
    ...(v.identificationId === binding?.identificationId ? {} : { i: v.identificationId }),
  };
  return {
    ...(s === undefined ? {} : { s }),
    ...(b === undefined ? {} : { b }),
    ...(d === undefined || b === undefined ? {} : { d }),
    ...(visit === undefined ? {} : { v: visit }),
    ...(c === undefined ? {} : { c }),
  };
}

/** Nothing left to keep: the cookie is cleared rather than sealed. */
export const isEmpty = (state: Sealed): boolean =>
  state.s === undefined && state.binding === undefined && state.v === undefined && state.c === undefined;
