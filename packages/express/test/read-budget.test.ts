// The third red team's medium finding on Express: the service's own 429 and the service down. The
// flood itself (two addresses polling while verified people start their visits) is read-flood.test.ts,
// run alone.
import { startSandbox } from '@verify-kit/sandbox';
import { logLines, startFaultProxy, verifyIn } from '@verify-kit/testkit';
import { describe, expect, it } from 'vitest';
import { signedInUser, startApp } from './support/app.js';

const API_KEY = 'sk_test_read_budget_6c1f';

describe('the service’s own 429 is honoured', () => {
  it('no read reaches the service during its Retry-After: polls are answered from the last read', async () => {
    const sandbox = await startSandbox({ apiKey: API_KEY, rateLimit: { requests: 3, windowMs: 3000 } });
    const proxy = await startFaultProxy({ target: sandbox.url });
    const app = await startApp({
      baseUrl: proxy.url,
      apiKey: API_KEY,
      retries: 0,
      readLimit: { perClient: 1000, perIp: 1000 },
    });
    try {
      const person = app.browser();
      expect((await person.post('/identity/session')).status).toBe(201); // the service's first call
      const answers: number[] = [];
      for (let i = 0; i < 20; i++) {
        answers.push((await person.get('/identity/status')).status);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // The creation, two reads answered, one 429, then nothing more until the Retry-After has passed.
      expect(proxy.stats().byUpstreamStatus).toEqual({ 201: 1, 200: 2, 429: 1 });
      // The poll whose read was answered 429 fails (503); the rest are answered from the last read.
      expect(answers.filter((status) => status !== 200)).toEqual([503]);
      expect(logLines.filter((line) => line.includes('answered 429'))).toHaveLength(1);
    } finally {
      await app.close();
      await proxy.close();
      await sandbox.close();
    }
  });
});

describe('the service down', () => {
  it('a poll over its budget is told the service is down, never shown the approval it read before', async () => {
    const sandbox = await startSandbox({ apiKey: API_KEY, reviewDelayMs: 0 });
    const app = await startApp({
      baseUrl: sandbox.url,
      apiKey: API_KEY,
      retries: 0,
      accountOf: signedInUser,
      readLimit: { perClient: 2, perIp: 1000 },
    });
    try {
      const device = await app.signedIn('ada');
      await verifyIn(sandbox, device);
      expect((await device.get<{ phase: string }>('/identity/status')).json.phase).toBe('approved');
      await sandbox.close();
      // Polls as a widget retries them: the first reach for the service, the rest are over budget.
      const answers: number[] = [];
      for (let i = 0; i < 6; i++) answers.push((await device.get('/identity/status')).status);
      expect(answers).toEqual([503, 503, 503, 503, 503, 503]);
    } finally {
      await app.close();
      await sandbox.close();
    }
  });
});
