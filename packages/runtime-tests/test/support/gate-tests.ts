import type { ErrorResponseBody } from '@verify-kit/protocol';
import { createSandboxControl } from '@verify-kit/sandbox/control';
import { deliverWebhook, verifyIn } from '@verify-kit/testkit';
import { expect, it } from 'vitest';
import { SESSIONS_PER_ADDRESS } from '../../shared/options.js';
import type { Target } from './use-runtime.js';

// The gate and the creation limit over real HTTP, on whichever runtime and app `target` is. The
// apps gate GET /account (redirectTo /verify) and allow 3 creations per address and minute.

export function gateTests(target: () => Target): void {
  it('the gate refuses a visitor not approved: 303 to /verify for a page, 403 JSON for a fetch', async () => {
    const browser = target().browser();
    const page = await browser.navigate('/account');
    expect([page.status, page.headers.location]).toEqual([303, '/verify?returnTo=%2Faccount']);

    expect((await browser.post('/identity/session')).status).toBe(201);
    const call = await browser.get<ErrorResponseBody>('/account');
    expect([call.status, call.json.error.code]).toEqual([403, 'NOT_APPROVED']);
    expect((await browser.navigate('/account')).status).toBe(303);
  });

  it('the gate passes a person the service approved; a signed webhook revoking it refuses the next request', async () => {
    const { sandbox, webhookSecret } = target();
    const browser = target().browser();
    const identificationId = await verifyIn(sandbox, browser);
    const page = await browser.navigate('/account');
    expect([page.status, page.text]).toEqual([200, 'welcome']);
    expect((await browser.get('/account')).status).toBe(200);

    await createSandboxControl(sandbox).setStatus(identificationId, 'REJECTED');
    const revoked = await deliverWebhook(target().service(), {
      secret: webhookSecret,
      identificationId,
      type: 'identification.rejected',
      status: 'REJECTED',
    });
    expect(revoked.status).toBe(204);
    const refused = await browser.get<ErrorResponseBody>('/account');
    expect([refused.status, refused.json.error.code]).toEqual([403, 'NOT_APPROVED']);
  });

  it('the service down at a visit’s start: 503, never a pass; back up, the visit begins', async () => {
    const { sandbox, proxy } = target();
    const browser = target().browser();
    await verifyIn(sandbox, browser);
    proxy.setRates({ server_error: 1 });
    try {
      const page = await browser.navigate('/account');
      expect(page.status).toBe(503);
      expect(page.text).not.toContain('welcome');
      const call = await browser.get<ErrorResponseBody>('/account');
      expect([call.status, call.json.error.code]).toEqual([503, 'UPSTREAM_UNAVAILABLE']);
    } finally {
      proxy.setRates({});
    }
    const page = await browser.navigate('/account');
    expect([page.status, page.text]).toEqual([200, 'welcome']);
  });

  it('the creation limit counts each client address as the runtime gives it: 429 past the limit, another address unaffected', async () => {
    const crowded = target().freshAddress();
    for (let i = 0; i < SESSIONS_PER_ADDRESS; i++) {
      expect((await target().browserFrom(crowded).post('/identity/session')).status).toBe(201);
    }
    const over = await target().browserFrom(crowded).post<ErrorResponseBody>('/identity/session');
    expect([over.status, over.json.error.code]).toEqual([429, 'TOO_MANY_SESSIONS']);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);

    const elsewhere = await target().browserFrom(target().freshAddress()).post('/identity/session');
    expect(elsewhere.status).toBe(201);
  });
}
