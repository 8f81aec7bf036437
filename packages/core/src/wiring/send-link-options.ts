import type { SendLinkChannel } from '@verify-kit/protocol';
import { z } from 'zod';
import type { BeforeSend, ContactOf, SendLimitRedisClient } from '../creation/send-link.js';
import { fn, int, objectWith, REDIS_CLIENT_ERROR } from './option-schemas.js';

/**
 * Send-link: the person may have the session's link sent to **their own** contact, the one your app
 * vouches for. The browser picks only the channel.
 */
export interface SendLinkOptions<Req = never> {
  channels: readonly SendLinkChannel[];
  /** The verified contacts of this request's person (your account's e-mail and phone), or undefined. */
  contactOf: ContactOf<Req>;
  /** Anonymous visitors too (contactOf must still vouch, e.g. from a phone you verified). Default false. */
  anonymous?: boolean;
  /** With `sms`, required: the calling-code prefixes texts may go to, e.g. `['+90', '+49']`. */
  smsCountries?: readonly string[];
  /** Sends to one contact per window. Default 5 an hour. */
  perRecipient?: { max: number; windowSeconds: number };
  /** Sends one account (or anonymous browser) may ask for per window. Default 5 an hour. */
  perAccount?: { max: number; windowSeconds: number };
  /** Sends from one address (an IPv6 address as its /64) per window. Default 10 an hour. */
  perIp?: { max: number; windowSeconds: number };
  /** Sends per hour for the whole deployment (with `redis`; else per process). Default 100. */
  perHour?: number;
  /** Called before each send (a CAPTCHA, your own checks): throw a 4xx VerifyKitError to refuse. */
  beforeSend?: BeforeSend<Req>;
  /** A connected node-redis v6 client (yours: the kit never closes it): the counts are shared by every instance. */
  redis?: SendLimitRedisClient;
  /** Redis key prefix. Default `verify-kit:send:`. */
  prefix?: string;
}

const perWindow = (max: number) =>
  z.strictObject({ max: int('', 1, max), windowSeconds: int('seconds', 1, 604_800) });

export const SEND_LINK_ARRAY_GONE =
  'no longer takes a list of channels (the browser chose the recipient, a phishing relay): use { channels: ["email"], contactOf: (req) => ({ email: the signed-in account’s verified e-mail }) }';

export const SendLinkSchema = z
  .strictObject(
    {
      channels: z
        .array(z.enum(['email', 'sms'], { error: 'must list "email" and/or "sms"' }))
        .min(1, { error: 'must list "email" and/or "sms"' })
        .readonly(),
      contactOf: fn<ContactOf>(
        'must be a function (req) => the person’s verified { email?, phoneNumber? } (from your account, never from the request body), or undefined',
      ),
      anonymous: z.boolean({ error: 'must be true or false' }).default(false),
      smsCountries: z
        .array(
          z
            .string({ error: 'must list calling-code prefixes such as "+90"' })
            .regex(/^\+[1-9][0-9]{0,6}$/, { error: 'must list calling-code prefixes such as "+90"' }),
        )
        .min(1, { error: 'must list at least one calling-code prefix' })
        .readonly()
        .optional(),
      perRecipient: perWindow(1000).default({ max: 5, windowSeconds: 3600 }),
      perAccount: perWindow(1000).default({ max: 5, windowSeconds: 3600 }),
      perIp: perWindow(100_000).default({ max: 10, windowSeconds: 3600 }),
      perHour: int('', 1, 10_000_000).default(100),
      beforeSend: fn<BeforeSend>(
        'must be a function (req, { channel, to }) => void that throws to refuse',
      ).optional(),
      redis: objectWith<SendLimitRedisClient>(['eval', 'multi', 'del'], REDIS_CLIENT_ERROR).optional(),
      // Filled in by withStore: the store's prefix when its Redis counts, else DEFAULT_SEND_PREFIX.
      prefix: z.string().max(256, { error: 'must be at most 256 characters' }).optional(),
    },
    {
      error:
        'must be { channels, contactOf, anonymous?, smsCountries?, perRecipient?, perAccount?, perIp?, perHour?, beforeSend?, redis?, prefix? }',
    },
  )
  .superRefine((value, ctx) => {
    if (value.channels.includes('sms') && value.smsCountries === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['smsCountries'],
        message:
          'is required with "sms": the calling-code prefixes texts may go to, e.g. ["+90", "+49"] (texts to other countries are the SMS pumping fraud you pay for)',
      });
    }
  });
