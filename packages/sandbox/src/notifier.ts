import type { WebhookEventType } from '@verify-kit/client';
import type { Clock } from './clock.js';
import { maskEmail, maskPhone } from './mask.js';
import { outboxTexts } from './messages.js';
import type { OtpState } from './otp.js';
import { type Channel, Outbox, type OutboxContent } from './outbox.js';
import type { SessionRecord } from './session-record.js';
import type { WebhookDispatcher } from './webhook-dispatcher.js';

export interface Contact {
  channel: Channel;
  recipient: string;
  masked: string;
}

/** The person's contact detail: the e-mail, else the phone number, else none. */
export function contactOf(rec: SessionRecord): Contact | undefined {
  if (rec.email !== undefined)
    return { channel: 'email', recipient: rec.email, masked: maskEmail(rec.email) };
  if (rec.phoneNumber !== undefined) {
    return { channel: 'sms', recipient: rec.phoneNumber, masked: maskPhone(rec.phoneNumber) };
  }
  return undefined;
}

/** What leaves the sandbox about a session: messages to the person (the outbox) and webhook events. */
export class Notifier {
  readonly outbox = new Outbox();

  constructor(
    private readonly clock: Clock,
    private readonly webhooks: WebhookDispatcher | undefined,
  ) {}

  sendLink(rec: SessionRecord): void {
    const texts = outboxTexts[rec.locale];
    this.send(rec, {
      kind: 'link',
      subject: texts.linkSubject,
      text: texts.link(rec.deepLink, rec.sessionCode, rec.durationMinutes),
      link: rec.deepLink,
    });
  }

  sendOtp(rec: SessionRecord, otp: OtpState): void {
    const texts = outboxTexts[rec.locale];
    this.send(rec, { kind: 'otp', subject: texts.otpSubject, text: texts.otp(otp.code), otp: otp.code });
  }

  emit(type: WebhookEventType, rec: SessionRecord): void {
    this.webhooks?.send({
      type,
      timestamp: new Date(this.clock.now()).toISOString(),
      data: { verificationSessionId: rec.id, identificationId: rec.identificationId, status: rec.status },
    });
  }

  /** Puts a message to the person's contact into the outbox; nothing without a contact detail. */
  private send(rec: SessionRecord, message: OutboxContent): void {
    const contact = contactOf(rec);
    if (!contact) return;
    this.outbox.add({
      sentAt: new Date(this.clock.now()).toISOString(),
      channel: contact.channel,
      recipient: contact.recipient,
      verificationSessionId: rec.id,
      identificationId: rec.identificationId,
      ...message,
    });
  }
}
