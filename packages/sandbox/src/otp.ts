import { randomInt, timingSafeEqual } from 'node:crypto';

export const OTP_LENGTH = 6;
export const OTP_VALIDITY_MS = 5 * 60 * 1000;
export const OTP_MAX_TRIES = 5;

/** One one-time password "sent" to the person (docs/architecture.md, decision 12). */
export interface OtpState {
  code: string;
  expiresAt: number;
  /** Wrong codes entered so far. */
  failures: number;
  confirmed: boolean;
}

export function newOtp(now: number): OtpState {
  return {
    code: String(randomInt(0, 10 ** OTP_LENGTH)).padStart(OTP_LENGTH, '0'),
    expiresAt: now + OTP_VALIDITY_MS,
    failures: 0,
    confirmed: false,
  };
}

export function otpMatches(otp: OtpState, candidate: string): boolean {
  const a = Buffer.from(otp.code);
  const b = Buffer.from(candidate);
  return a.length === b.length && timingSafeEqual(a, b);
}
