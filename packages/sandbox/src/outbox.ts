import { randomUUID } from 'node:crypto';

export type Channel = 'email' | 'sms';

/** A message the sandbox "sent" instead of e-mailing or texting the person. */
export interface OutboxMessage {
  id: string;
  /** ISO 8601, sandbox clock. */
  sentAt: string;
  channel: Channel;
  recipient: string;
  kind: 'link' | 'otp';
  verificationSessionId: string;
  identificationId: string;
  subject: string;
  text: string;
  /** The one-time password, for kind 'otp'. */
  otp?: string;
  /** The deep link, for kind 'link'. */
  link?: string;
}

/** What a message says, before the sandbox addresses it to the session's contact. */
export type OutboxContent = Pick<OutboxMessage, 'kind' | 'subject' | 'text' | 'otp' | 'link'>;

/** The newest messages, bounded. */
export class Outbox {
  private readonly messages: OutboxMessage[] = [];

  constructor(private readonly max = 1000) {}

  add(message: Omit<OutboxMessage, 'id'>): OutboxMessage {
    const full = { id: randomUUID(), ...message };
    this.messages.push(full);
    if (this.messages.length > this.max) this.messages.splice(0, this.messages.length - this.max);
    return full;
  }

  list(filter: { verificationSessionId?: string; recipient?: string } = {}): OutboxMessage[] {
    return this.messages.filter(
      (m) =>
        (filter.verificationSessionId === undefined ||
          m.verificationSessionId === filter.verificationSessionId) &&
        (filter.recipient === undefined || m.recipient === filter.recipient),
    );
  }
}
