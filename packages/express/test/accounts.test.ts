// A verification belongs to the account (accountOf + a BindingStore), over real HTTP against the
// real sandbox; accounts-redis.test.ts has several instances sharing a real redis-server.
import type { Browser } from '@verify-kit/testkit';
import { describe, expect, it } from 'vitest';
import { type BindingStore, createMemoryBindingStore, type SessionResponseBody } from '../src/index.js';
import { signedInUser, startApp } from './support/app.js';
import { useSandboxApp, verifyIn } from './support/fixtures.js';

const API_KEY = 'sk_test_accounts_3f9a';
const context = useSandboxApp(API_KEY, { accountOf: signedInUser, bindingStore: createMemoryBindingStore() });
const verify = (device: Browser) => verifyIn(context.sandbox, device);

describe('an account’s verification on one instance (the memory store)', () => {
  it('verified on device A: passes the gate on device B and after signing out and in', async () => {
    const phone = await context.app.signedIn('ada');
    await verify(phone);
    expect((await phone.get('/api/data')).status).toBe(200);

    const laptop = await context.app.signedIn('ada');
    expect((await laptop.get('/api/data')).status).toBe(200);
    expect((await laptop.get<{ phase: string }>('/identity/status')).json.phase).toBe('approved');

    await phone.post('/logout');
    expect((await phone.get('/api/data')).status).toBe(403);
    await phone.post('/login?user=ada');
    expect((await phone.get('/api/data')).status).toBe(200);
  });

  it('another account sees nothing: 403 at the gate, 404 on /status and /qr.svg', async () => {
    const other = await context.app.signedIn('mallory');
    expect((await other.get('/api/data')).status).toBe(403);
    expect((await other.get('/identity/status')).status).toBe(404);
    expect((await other.get('/identity/qr.svg')).status).toBe(404);
  });

  it('an anonymous verification is never moved into an account by signing in', async () => {
    const visitor = context.app.browser();
    await verify(visitor);
    expect((await visitor.get('/api/data')).status).toBe(200);
    await visitor.post('/login?user=grace');
    expect((await visitor.get('/api/data')).status).toBe(403);
    expect((await visitor.get('/identity/status')).status).toBe(404);
  });

  it('an approved verification is not replaced by restart; after forget it is refused and may start again', async () => {
    const device = await context.app.signedIn('linus');
    await verify(device);
    const restarted = await device.post<SessionResponseBody>('/identity/session', { restart: true });
    expect(restarted.json.phase).toBe('approved');
    const second = await context.app.signedIn('linus');
    expect((await second.post('/forget')).status).toBe(200);
    expect((await device.get('/api/data')).status).toBe(403);
    expect((await second.get('/identity/status')).status).toBe(404);
    expect(await context.app.kit.statusOfAccount('linus')).toBeUndefined();
    const again = await device.post<SessionResponseBody>('/identity/session');
    expect(again.json.phase).toBe('awaiting_user');
  });

  it('statusOfAccount reads an account’s verification without a request', async () => {
    const device = await context.app.signedIn('edsger');
    const identificationId = await verify(device);
    expect(await context.app.kit.statusOfAccount('edsger')).toMatchObject({
      status: 'APPROVED',
      phase: 'approved',
      approved: true,
      identificationId,
    });
  });
});

describe('an account that cannot be resolved, a binding store that does not answer', () => {
  it('accountOf failing or returning garbage is a 500 ACCOUNT_RESOLUTION_FAILED, never a pass', async () => {
    for (const broken of [
      () => {
        throw new Error('db down');
      },
      () => ({ id: 1 }) as unknown as string,
    ]) {
      const failing = await startApp({ baseUrl: context.sandbox.url, apiKey: API_KEY, accountOf: broken });
      try {
        const res = await failing.browser().get<{ error: { code: string } }>('/api/data');
        expect([res.status, res.json.error.code]).toEqual([500, 'ACCOUNT_RESOLUTION_FAILED']);
        expect(failing.passed).toBe(0);
      } finally {
        await failing.close();
      }
    }
  });

  it('a store that does not answer: the gate fails closed with 503 BINDING_STORE_UNAVAILABLE', async () => {
    const memory = createMemoryBindingStore();
    let down = false;
    // Down, every call hangs: the gate inside a visit asks for the stored decision, not the binding.
    const hangs = <A extends unknown[], R>(call: (...args: A) => R) =>
      ((...args: A) => (down ? new Promise<never>(() => {}) : call(...args))) as (...args: A) => R;
    const flaky: BindingStore = {
      ...memory,
      get: hangs(memory.get),
      getDecision: hangs(memory.getDecision),
    };
    const app2 = await startApp({
      baseUrl: context.sandbox.url,
      apiKey: API_KEY,
      accountOf: signedInUser,
      bindingStore: flaky,
    });
    try {
      const device = await app2.signedIn('ada');
      await verify(device);
      expect((await device.get('/api/data')).status).toBe(200);
      down = true;
      const res = await device.get<{ error: { code: string } }>('/api/data');
      expect([res.status, res.json.error.code]).toEqual([503, 'BINDING_STORE_UNAVAILABLE']);
      expect(app2.passed).toBe(1);
    } finally {
      await app2.close();
    }
  });
});
