import type { ErrorCode } from './error-codes.js';
import type { Phase } from './phases.js';

/**
 * The languages of the widget and the kit. The service's app speaks `en` and `tr` only (its spec):
 * the kit asks it for English for the others.
 */
export const LOCALES = ['en', 'tr', 'de', 'ar'] as const;
export type Locale = (typeof LOCALES)[number];

/** Where the kit may send the session's link instead of showing it (the service notifies the contact). */
export type SendLinkChannel = 'email' | 'sms';

/**
 * A channel the kit offers this person, with where the link would go: the contact the app vouches
 * for (never one the browser typed), masked, e.g. `a•••@example.com` or `•••••67`.
 */
export interface SendLinkOffer {
  channel: SendLinkChannel;
  to: string;
}

/** Body of `POST /session`. Every field is optional: `{}` starts or resumes the verification. */
export interface SessionRequestBody {
  /** A new session even when one is live; an approved verification is never replaced. */
  restart?: boolean;
  /** The widget's language: the service's app speaks the same one. */
  locale?: Locale;
  /**
   * Have the service send the link by this channel to the person's own contact, the one the app
   * vouches for (a new session is created for it). The browser picks the channel, never the address:
   * only a channel offered in the 201's `sendLink`.
   */
  sendTo?: { channel: SendLinkChannel };
  /**
   * This browser's own random id (the widget keeps it in localStorage, where no other site, no
   * sibling subdomain and no cookie can plant one): an anonymous visitor's verification is resumed
   * only by the browser that started it, so a planted cookie never makes its owner's verification
   * the victim's. 16 to 64 characters of [A-Za-z0-9_-]. Left out, any bound verification resumes.
   */
  holder?: string;
}

/** 201 of `POST /session`. */
export interface SessionResponseBody {
  sessionCode: string;
  /** Opens the service's app on this device; its scheme is checked by the kit (never javascript:). */
  deepLink: string;
  /** The kit's own `/qr.svg` under the mount, never the service's: for pages that link the image. */
  qrCodeUrl: string;
  /**
   * The same QR as a `data:image/svg+xml,` URL, so the page paints it with no further request (an
   * `<img>` never runs an SVG's script; the page's CSP needs `img-src data:`).
   */
  qrImage: string;
  /** The service's web page for the session: the way on for a person without the app. */
  sessionPageLink: string;
  /** ISO 8601. */
  expiresAt: string;
  status: string;
  phase: Phase;
  /** The channels through which this person may have the link sent, each with its masked contact; empty: none. */
  sendLink: readonly SendLinkOffer[];
  /** Set when this answer sent the link: the contact, masked (e.g. `a•••@example.com`). */
  sentTo?: string;
  /** Present when the kit does not hold long-polls: ask `GET /status` again after this many ms. */
  pollAfterMs?: number;
}

/** 200 of `GET /status[?wait=<s>&since=<phase>]`. */
export interface StatusResponseBody {
  status: string;
  phase: Phase;
  /** ISO 8601. */
  expiresAt: string;
  /** Present when the kit does not hold long-polls: ask again after this many ms. */
  pollAfterMs?: number;
}

/** Every error of the kit: `{ error: { code, message, details? } }`. */
export interface ErrorResponseBody {
  error: { code: ErrorCode | (string & {}); message: string; details?: unknown[] };
}

/** Upper bound of `wait` on `GET /status`, in seconds. */
export const MAX_WAIT_SECONDS = 30;

/** The `wait` the kit allows by default: below API gateways' 29 s and cheap where functions bill waiting. */
export const DEFAULT_MAX_WAIT_SECONDS = 25;
