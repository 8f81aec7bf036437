// The third red team's second finding: send caps were spent by sends that never happened. Over real
// HTTP against the real sandbox, whose outbox shows every link the service sent.
import { startFakeUpstream } from '@verify-kit/testkit';
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import type { AuditEvent, SendLinkOptions } from '../src/index.js';
import { signedInUser, startApp } from './support/app.js';
import { SEND_EMAIL, useSendLinkApps } from './support/send-link.js';

const API_KEY = 'sk_test_send_points_2b8e';
const { appWith, linksTo, outbox } = useSendLinkApps(API_KEY);
const contactOf: SendLinkOptions['contactOf'] = (req) => ({ email: `${signedInUser(req)}@example.com` });

describe('send points for sends that go out', () => {
  it('one person’s triple click sends one link and costs one of their five', async () => {
    const app = await appWith({ channels: ['email'], contactOf });
    const ada = await app.signedIn('ada');
    const clicks = await Promise.all([1, 2, 3].map(() => ada.post('/identity/session', SEND_EMAIL)));
    expect(clicks.map((res) => res.status)).toEqual([201, 201, 201]);
    expect(await linksTo('ada@example.com')).toHaveLength(1);
    // Four more sends (a new session each) are within the five an hour.
    for (let i = 0; i < 4; i++) {
      expect((await ada.post('/identity/session', { ...SEND_EMAIL, restart: true })).status).toBe(201);
    }
    expect(await linksTo('ada@example.com')).toHaveLength(5);
    expect((await ada.post('/identity/session', { ...SEND_EMAIL, restart: true })).status).toBe(429);
  });

  it('20 accounts × 5 concurrent sends from one address cannot switch send-link off for everybody', async () => {
    const audit: AuditEvent[] = [];
    const app = await appWith(
      { channels: ['email'], contactOf, perHour: 100 },
      { onAudit: (e) => audit.push(e) },
    );
    const accounts = await Promise.all(Array.from({ length: 20 }, (_, i) => app.signedIn(`flood${i}`)));
    const answers = await Promise.all(
      accounts.flatMap((account) => [1, 2, 3, 4, 5].map(() => account.post('/identity/session', SEND_EMAIL))),
    );
    const links = (await outbox()).filter((m) => m.kind === 'link' && m.recipient.startsWith('flood'));
    // The address's ten sends an hour went out; the rest were refused without spending anything.
    expect(links).toHaveLength(10);
    expect(answers.filter((res) => res.status === 429).length).toBeGreaterThan(0);
    expect(answers.filter((res) => res.status !== 201 && res.status !== 429)).toEqual([]);
    // Somebody else, from another address, still gets their link.
    const elsewhere = await app.signedIn('grace', new Agent({ localAddress: '127.0.0.2' }));
    expect((await elsewhere.post('/identity/session', SEND_EMAIL)).status).toBe(201);
    expect(await linksTo('grace@example.com')).toHaveLength(1);
    expect(audit.filter((e) => e.type === 'send-link.budget-spent')).toEqual([]);
  });

  it('a send the service refuses costs nothing; a spent budget is told to onAudit and the log once', async () => {
    const upstream = await startFakeUpstream();
    const audit: AuditEvent[] = [];
    const lines: string[] = [];
    const app = await startApp({
      baseUrl: upstream.url,
      apiKey: API_KEY,
      accountOf: signedInUser,
      retries: 0,
      sendLink: { channels: ['email'], contactOf, perRecipient: { max: 1, windowSeconds: 3600 }, perHour: 2 },
      onAudit: (event) => audit.push(event),
      logger: { warn: (message: string) => lines.push(message) },
    });
    try {
      const ada = await app.signedIn('ada');
      upstream.mode = '500';
      expect((await ada.post('/identity/session', SEND_EMAIL)).status).toBe(503);
      upstream.mode = 'healthy';
      // Its one send an hour is still there.
      expect((await ada.post('/identity/session', SEND_EMAIL)).status).toBe(201);
      expect((await (await app.signedIn('bob')).post('/identity/session', SEND_EMAIL)).status).toBe(201);
      for (const user of ['carol', 'dan']) {
        expect((await (await app.signedIn(user)).post('/identity/session', SEND_EMAIL)).status).toBe(429);
      }
      expect(audit.filter((e) => e.type === 'send-link.budget-spent')).toHaveLength(1);
      expect(lines.filter((line) => line.includes('hourly budget of 2 sends is spent'))).toHaveLength(1);
    } finally {
      await app.close();
      await upstream.close();
    }
  });
});
