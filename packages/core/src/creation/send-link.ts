import {
  EmailSchema,
  isVerifyKitError,
  PhoneNumberSchema,
  type VerifyKitError,
} from '@verify-kit/client/fetch';
import type { SendLinkChannel, SendLinkOffer } from '@verify-kit/protocol';
import type { Owner } from '../bindings/bindings.js';
import { type Counter, type CountIn, isRefusal as isCountRefusal } from '../limits/counter.js';
import type { LimitRedisClient } from '../limits/rate-limits.js';
import { ERROR_CODE, kitError } from '../shared/errors.js';
import { sha256Base64Url } from '../shared/sha256.js';
import { maskContact } from './mask-contact.js';

/** The person's own contacts, as the app vouches for them (verified by the app, not typed in the browser). */
export interface VouchedContacts {
  email?: string | undefined;
  phoneNumber?: string | undefined;
}

/** Where a link goes: e-mail trimmed, phone as `+` and digits. */
export interface SendLinkContact {
  channel: SendLinkChannel;
  to: string;
}

export type ContactOf<Req = never> = (
  req: Req,
) => VouchedContacts | undefined | Promise<VouchedContacts | undefined>;
/** Your last word before a send (a CAPTCHA, your own checks): throw a 4xx VerifyKitError to refuse. */
export type BeforeSend<Req = never> = (req: Req, contact: SendLinkContact) => void | Promise<void>;

/** What the send counts use of a node-redis (v6) client: `createClient()` from `redis` fits. */
export type SendLimitRedisClient = LimitRedisClient;

export const DEFAULT_SEND_PREFIX = 'verify-kit:send:';

/** `sendLink` once validated (options.ts). */
export interface SendLinkSettings {
  channels: readonly SendLinkChannel[];
  contactOf: ContactOf;
  anonymous: boolean;
  /** Calling-code prefixes (`+90`); required with `sms`. */
  smsCountries?: readonly string[] | undefined;
  perRecipient: { max: number; windowSeconds: number };
  perAccount: { max: number; windowSeconds: number };
  perIp: { max: number; windowSeconds: number };
  perHour: number;
  beforeSend?: BeforeSend | undefined;
  /** Counts shared by every instance (the hourly budget is the deployment's). */
  redis?: SendLimitRedisClient | undefined;
  prefix: string;
}

/** A count in memory, or in Redis with this process's memory as the fallback while Redis is away. */
function limiter(
  countIn: CountIn,
  settings: SendLinkSettings,
  name: string,
  points: number,
  duration: number,
) {
  return countIn(settings.redis, { keyPrefix: `${settings.prefix}${name}`, points, duration });
}

/** Who asks for a send: the account (or anonymous browser) and the address. */
export interface SendKeys {
  sender: string;
  address: string;
}

/** Gives back the points a send took (it joined nothing, but its creation failed). */
export type Refund = () => Promise<void>;

/** What the kit may do with one request's contacts: per channel, the contact or why not. */
type Checked = Partial<Record<SendLinkChannel, SendLinkContact | VerifyKitError>>;

const FIELD = { email: 'email', sms: 'phoneNumber' } as const;

/** The app's hooks may refuse on purpose with a 4xx VerifyKitError: it goes out as it is. */
const isRefusal = (error: unknown): error is VerifyKitError =>
  isVerifyKitError(error) && error.status !== undefined && error.status >= 400 && error.status < 500;

/** `+`, then the digits; undefined unless the number is written in international form. */
export function normalisePhone(value: string): string | undefined {
  const trimmed = value.trim();
  if (!trimmed.startsWith('+') || !PhoneNumberSchema.safeParse(trimmed).success) return undefined;
  return `+${trimmed.replace(/\D/g, '')}`;
}

/** The key a recipient is counted under (e-mail lower-cased, phone normalised), hashed: no address in Redis. */
const recipientKey = ({ channel, to }: SendLinkContact) => sha256Base64Url(`${channel}:${to.toLowerCase()}`);

function tooManySends(msBeforeNext: number) {
  const error = kitError(ERROR_CODE.TOO_MANY_SENDS, 'too many links sent: try again after Retry-After');
  return Object.assign(error, { retryAfterSeconds: Math.max(1, Math.ceil(msBeforeNext / 1000)) });
}

/**
 * Send-link without a free recipient: the browser picks a channel, the app vouches for the contact
 * (`contactOf`), and the kit checks it (the client's schemas, the SMS countries), asks `beforeSend`
 * and counts it (per recipient, and the deployment's hourly budget) before any link goes out.
 */
export class SendLink {
  readonly #caps?: {
    perAddress: Counter;
    perSender: Counter;
    perRecipient: Counter;
    budget: Counter;
  };
  /** Epoch ms until which the spent budget has been reported. */
  #reportedUntil = 0;

  constructor(
    private readonly settings: SendLinkSettings | undefined,
    private readonly warnOnce: (message: string) => void,
    private readonly reportSpent: (retryAfterSeconds: number) => void,
    countIn: CountIn,
    private readonly onRefusal?: () => void,
  ) {
    if (settings === undefined) return;
    const per = (name: string, { max, windowSeconds }: { max: number; windowSeconds: number }) =>
      limiter(countIn, settings, name, max, windowSeconds);
    this.#caps = {
      perAddress: per('address', settings.perIp),
      perSender: per('sender', settings.perAccount),
      perRecipient: per('recipient', settings.perRecipient),
      budget: limiter(countIn, settings, 'budget', settings.perHour, 3600),
    };
  }

  /** Whether the kit sends by `channel` at all (else 400 SEND_LINK_NOT_ALLOWED). */
  allows(channel: SendLinkChannel): boolean {
    return this.settings?.channels.includes(channel) ?? false;
  }

  /** This person's contacts per channel, checked; contactOf is not asked for an anonymous visitor unless allowed. */
  async check(req: unknown, owner: Owner): Promise<Checked> {
    const settings = this.settings;
    if (settings === undefined) return {};
    if (owner.accountId === undefined && !settings.anonymous) return {};
    let vouched: VouchedContacts | undefined;
    try {
      vouched = await settings.contactOf(req as never);
    } catch (error) {
      const refusal = isRefusal(error) ? error : this.#hookFailed('contactOf', error);
      return Object.fromEntries(settings.channels.map((channel) => [channel, refusal]));
    }
    const checked: Checked = {};
    for (const channel of settings.channels) {
      const value = typeof vouched === 'object' && vouched !== null ? vouched[FIELD[channel]] : undefined;
      if (value !== undefined) checked[channel] = this.#contact(channel, value);
    }
    return checked;
  }

  /** The channels offered in the session answer, each with its masked contact. */
  offers(checked: Checked): SendLinkOffer[] {
    return Object.values(checked).flatMap((contact) =>
      contact !== undefined && !(contact instanceof Error)
        ? [{ channel: contact.channel, to: maskContact(contact) }]
        : [],
    );
  }

  /** The contact to send to by `channel`, or the refusal. */
  contactOn(checked: Checked, channel: SendLinkChannel): SendLinkContact {
    const contact = checked[channel];
    if (contact instanceof Error) throw contact;
    if (contact === undefined) {
      throw kitError(
        ERROR_CODE.SEND_LINK_NO_CONTACT,
        `no ${channel === 'email' ? 'e-mail address' : 'phone number'} of yours is known here to send the link to`,
      );
    }
    return contact;
  }

  /**
   * Right before the link goes out, inside the creation that sends it (a request that joins another
   * takes nothing): beforeSend, then one point of each cap (the address's, the sender's, the
   * recipient's, the deployment's hourly budget). A cap that is full gives the others back and
   * refuses (TOO_MANY_SENDS); the returned refund gives them all back when the send fails.
   */
  async take(req: unknown, contact: SendLinkContact, keys: SendKeys): Promise<Refund> {
    const settings = this.settings;
    const caps = this.#caps;
    if (settings === undefined || caps === undefined) {
      throw kitError(ERROR_CODE.SEND_LINK_NOT_ALLOWED, 'this server does not send links');
    }
    if (settings.beforeSend !== undefined) {
      try {
        await settings.beforeSend(req as never, { ...contact });
      } catch (error) {
        throw isRefusal(error) ? error : this.#hookFailed('beforeSend', error);
      }
    }
    const taken: [Counter, string][] = [];
    const refund = () =>
      Promise.all(taken.map(([cap, key]) => cap.reward(key, 1).catch(() => undefined))).then(() => undefined);
    const order: [Counter, string][] = [
      [caps.perAddress, `address:${keys.address}`],
      [caps.perSender, keys.sender],
      [caps.perRecipient, await recipientKey(contact)],
      [caps.budget, 'all'],
    ];
    for (const [cap, key] of order) {
      try {
        await cap.consume(key);
        taken.push([cap, key]);
      } catch (error) {
        await refund();
        if (!isCountRefusal(error)) throw error;
        if (cap === caps.budget) this.#budgetSpent(error.msBeforeNext);
        this.onRefusal?.();
        throw tooManySends(error.msBeforeNext);
      }
    }
    return refund;
  }

  /** The deployment's budget refused a send: said once per hour it stays spent (log and onAudit). */
  #budgetSpent(msBeforeNext: number): void {
    const now = Date.now();
    if (now < this.#reportedUntil) return;
    this.#reportedUntil = now + msBeforeNext;
    this.reportSpent(Math.max(1, Math.ceil(msBeforeNext / 1000)));
  }

  #contact(channel: SendLinkChannel, value: unknown): SendLinkContact | VerifyKitError {
    if (channel === 'email') {
      const email = typeof value === 'string' ? value.trim() : undefined;
      if (email !== undefined && EmailSchema.safeParse(email).success) return { channel, to: email };
      return this.#invalid('sendLink.contactOf returned an email the service would refuse: fix contactOf');
    }
    const phone = typeof value === 'string' ? normalisePhone(value) : undefined;
    if (phone === undefined) {
      return this.#invalid(
        'sendLink.contactOf returned a phoneNumber the service would refuse, or one without its country code: return it in international form (+90…)',
      );
    }
    if (!this.settings?.smsCountries?.some((prefix) => phone.startsWith(prefix))) {
      return kitError(
        ERROR_CODE.SEND_LINK_COUNTRY_NOT_ALLOWED,
        'this server does not send text messages to that country',
      );
    }
    return { channel, to: phone };
  }

  /** A server misconfiguration: said once, never with the contact. */
  #invalid(message: string): VerifyKitError {
    this.warnOnce(message);
    return kitError(ERROR_CODE.SEND_LINK_CONTACT_INVALID, 'the server could not send the link');
  }

  #hookFailed(hook: 'contactOf' | 'beforeSend', error: unknown): VerifyKitError {
    const why = error instanceof Error ? error.name : typeof error;
    this.warnOnce(`sendLink.${hook} threw (${why}): sends are refused until it is fixed`);
    return kitError(ERROR_CODE.SEND_LINK_HOOK_FAILED, 'the server could not send the link');
  }
}
