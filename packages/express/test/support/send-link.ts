import type { OutboxMessage } from '@verify-kit/sandbox';
import { createSandboxControl } from '@verify-kit/sandbox/control';
import { afterEach } from 'vitest';
import type { SendLinkOptions, VerifyKitOptions } from '../../src/index.js';
import { signedInUser, startApp, type TestApp } from './app.js';
import { useSandboxApp } from './fixtures.js';

export const SEND_EMAIL = { sendTo: { channel: 'email' } };
export const SEND_SMS = { sendTo: { channel: 'sms' } };

/**
 * The file's sandbox (and an app on it nobody uses): each test starts its own apps with their
 * sendLink (`appWith`), closed after it; `linksTo` reads the sandbox's outbox.
 */
export function useSendLinkApps(apiKey: string) {
  const context = useSandboxApp(apiKey);
  const apps: TestApp[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });
  return {
    async appWith(sendLink: SendLinkOptions, extra: Partial<VerifyKitOptions> = {}) {
      const app = await startApp({
        baseUrl: context.sandbox.url,
        apiKey,
        accountOf: signedInUser,
        sessionLimit: false,
        sendLink,
        ...extra,
      });
      apps.push(app);
      return app;
    },
    /** Every message the service sent. */
    outbox: (): Promise<OutboxMessage[]> => createSandboxControl(context.sandbox).outbox(),
    /** Link messages the service sent to `recipient` (the outbox also holds each session's one-time code). */
    async linksTo(recipient: string): Promise<OutboxMessage[]> {
      const sent = await createSandboxControl(context.sandbox).outbox({ recipient });
      return sent.filter((message) => message.kind === 'link');
    },
  };
}
