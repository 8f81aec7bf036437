import type { SendLinkOffer } from '@verify-kit/express';
import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import { createSandboxControl } from '@verify-kit/sandbox/control';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { serveSignedIn } from './support/kit-app.js';

// The express README's send-link fragment, run against the real sandbox (its outbox shows what was sent).
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, reviewDelayMs: 0 });
  vi.stubEnv('IDV_BASE_URL', sandbox.url);
  vi.stubEnv('IDV_API_KEY', sandbox.apiKey);
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await sandbox.close();
});

test('send-link: the account’s own contacts offered masked, beforeSend’s refusal, then the link to the account’s address', async () => {
  const { kit, humanChecked } = await import('../express/send-link.js');
  const app = await serveSignedIn(kit, 'ada');
  try {
    const started = await app.browser.post<{ sendLink: SendLinkOffer[] }>('/identity/session');
    expect(started.json.sendLink).toEqual([
      { channel: 'email', to: 'a•••@example.com' },
      { channel: 'sms', to: '•••••01' },
    ]);
    const send = { sendTo: { channel: 'email' } };
    const refused = await app.browser.post<{ error: { code: string } }>('/identity/session', send);
    expect([refused.status, refused.json.error.code]).toEqual([403, 'HUMAN_CHECK_REQUIRED']);
    humanChecked.add('ada');
    const sent = await app.browser.post<{ sentTo: string }>('/identity/session', send);
    expect([sent.status, sent.json.sentTo]).toEqual([201, 'a•••@example.com']);
    const outbox = await createSandboxControl(sandbox).outbox({ recipient: 'ada@example.com' });
    expect(outbox.filter((message) => message.kind === 'link')).toHaveLength(1);
  } finally {
    await app.close();
    await kit.close();
  }
});
