import type { OutboxMessage } from '@verify-kit/sandbox';
import { createSandboxControl } from '@verify-kit/sandbox/control';
import { closedAfterEach, linksTo } from '@verify-kit/testkit';
import type { SendLinkOptions, VerifyKitOptions } from '../../src/index.js';
import { signedInUser, startApp } from './app.js';
import { useSandboxApp } from './fixtures.js';

export const SEND_EMAIL = { sendTo: { channel: 'email' } };
export const SEND_SMS = { sendTo: { channel: 'sms' } };

/**
 * The file's sandbox (and an app on it nobody uses): each test starts its own apps with their
 * sendLink (`appWith`), closed after it; `linksTo` reads the sandbox's outbox.
 */
export function useSendLinkApps(apiKey: string) {
  const context = useSandboxApp(apiKey);
  const closes = closedAfterEach();
  return {
    async appWith(sendLink: SendLinkOptions, extra: Partial<VerifyKitOptions> = {}) {
      return closes(
        await startApp({
          baseUrl: context.sandbox.url,
          apiKey,
          accountOf: signedInUser,
          sessionLimit: false,
          sendLink,
          ...extra,
        }),
      );
    },
    /** Every message the service sent. */
    outbox: (): Promise<OutboxMessage[]> => createSandboxControl(context.sandbox).outbox(),
    /** Link messages the service sent to `recipient` (the outbox also holds each session's one-time code). */
    linksTo: (recipient: string): Promise<OutboxMessage[]> => linksTo(context.sandbox, recipient),
  };
}
