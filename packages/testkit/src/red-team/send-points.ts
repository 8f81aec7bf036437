// The third red team's finding 2 (issue 33) as a suite every shell runs: red-team/app.ts says how.
import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import { createSandboxControl } from '@verify-kit/sandbox/control';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../fake-upstream.js';
import { expectKeyNeverLeaked } from '../leaks.js';
import { fromAddress } from '../source-address.js';
import { closedAfterEach, linksTo, onFakeUpstream, type RedTeamOptions, type StartApp } from './app.js';
/**
 * Finding 2: send caps were spent by sends that never happened. Against the real sandbox, whose
 * outbox shows every link the service sent, and the fake upstream for a send the service refuses.
 */
export function describeSendPoints(apiKey: string, start: StartApp): void {
  describe('send points for sends that go out', () => {
    let sandbox: Sandbox;
    beforeAll(async () => {
      sandbox = await startSandbox({ apiKey, reviewDelayMs: 0 });
    });
    afterAll(async () => {
      await sandbox?.close();
      expectKeyNeverLeaked(apiKey);
    });
    const closes = closedAfterEach();
    const SEND_EMAIL = { sendTo: { channel: 'email' } };
    const appWith = async (sendLink: RedTeamOptions['sendLink'], extra: Partial<RedTeamOptions> = {}) =>
      closes(await start({ baseUrl: sandbox.url, apiKey, sessionLimit: false, sendLink, ...extra }));

    it('one person’s triple click sends one link and costs one of their five', async () => {
      const ada = await (await appWith({})).signedIn('ada');
      const clicks = await Promise.all([1, 2, 3].map(() => ada.post('/identity/session', SEND_EMAIL)));
      expect(clicks.map((res) => res.status)).toEqual([201, 201, 201]);
      expect(await linksTo(sandbox, 'ada@example.com')).toHaveLength(1);
      // Four more sends (a new session each) are within the five an hour.
      for (let i = 0; i < 4; i++) {
        expect((await ada.post('/identity/session', { ...SEND_EMAIL, restart: true })).status).toBe(201);
      }
      expect(await linksTo(sandbox, 'ada@example.com')).toHaveLength(5);
      expect((await ada.post('/identity/session', { ...SEND_EMAIL, restart: true })).status).toBe(429);
    });

    it('20 accounts × 5 concurrent sends from one address cannot switch send-link off for everybody', async () => {
      const audit: { type: string }[] = [];
      const app = await appWith({ perHour: 100 }, { onAudit: (event) => audit.push(event) });
      const accounts = await Promise.all(Array.from({ length: 20 }, (_, i) => app.signedIn(`flood${i}`)));
      const answers = await Promise.all(
        accounts.flatMap((account) =>
          [1, 2, 3, 4, 5].map(() => account.post('/identity/session', SEND_EMAIL)),
        ),
      );
      const outbox = await createSandboxControl(sandbox).outbox();
      const links = outbox.filter((m) => m.kind === 'link' && m.recipient.startsWith('flood'));
      // The address's ten sends an hour went out; the rest were refused without spending anything.
      expect(links).toHaveLength(10);
      expect(answers.filter((res) => res.status === 429).length).toBeGreaterThan(0);
      expect(answers.filter((res) => res.status !== 201 && res.status !== 429)).toEqual([]);
      // Somebody else, from another address, still gets their link.
      const elsewhere = await app.signedIn('grace', fromAddress('127.0.0.2'));
      expect((await elsewhere.post('/identity/session', SEND_EMAIL)).status).toBe(201);
      expect(await linksTo(sandbox, 'grace@example.com')).toHaveLength(1);
      expect(audit.filter((e) => e.type === 'send-link.budget-spent')).toEqual([]);
    });

    it('a send the service refuses costs nothing; a spent budget is told to onAudit and the log once', async () => {
      const audit: { type: string }[] = [];
      const lines: string[] = [];
      const sendLink = { perRecipient: { max: 1, windowSeconds: 3600 }, perHour: 2 };
      const extra = {
        retries: 0,
        onAudit: (event: { type: string }) => audit.push(event),
        logger: { warn: (message: string) => lines.push(message) },
      };
      const startOn = (upstream: FakeUpstream) =>
        start({ baseUrl: upstream.url, apiKey, sendLink, ...extra });
      await onFakeUpstream(startOn, async (app, upstream) => {
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
      });
    });
  });
}
