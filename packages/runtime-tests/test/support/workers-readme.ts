import { generateWebhookSecret } from '@verify-kit/client';
import type { ErrorResponseBody, SessionResponseBody, StatusResponseBody } from '@verify-kit/protocol';
import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import { createSandboxControl } from '@verify-kit/sandbox/control';
import { approveInSandbox, Browser, deliverWebhook } from '@verify-kit/testkit';
import { beforeAll, expect, it } from 'vitest';
import type { AppInstance, PreparedApp } from './app-instance.js';
import { closeAfterAll } from './close-after-all.js';
import { startApp } from './start-app.js';

// core's README example for Cloudflare Workers, run as the README writes it (its bindings named as
// there), against a real sandbox: a visitor is sent to /verify, starts a verification, gets in once
// the service approves, and is refused after a signed webhook revokes the approval.

const API_KEY = 'sk_test_workers_readme_7c3d';

export function workersReadmeTests(prepare: () => Promise<PreparedApp>): void {
  const webhookSecret = generateWebhookSecret();
  const closeLater = closeAfterAll();
  let sandbox: Sandbox;
  let worker: AppInstance;

  beforeAll(async () => {
    sandbox = await startSandbox({ apiKey: API_KEY, reviewDelayMs: 0 });
    closeLater(() => sandbox.close());
    const running = await startApp(prepare, {
      IDV_BASE_URL: sandbox.url,
      IDV_API_KEY: API_KEY,
      IDV_WEBHOOK_SECRET: webhookSecret,
      VERIFY_KIT_SECRET: 'workers-readme-cookie-secret-0123456789abcdef',
    });
    closeLater(() => running.close());
    worker = running.instances[0] as AppInstance;
  }, 60_000);

  it('a visitor is sent to verify, starts a verification, gets in once approved, and is refused once revoked', async () => {
    const browser = new Browser(worker.url);
    const refused = await browser.navigate('/account');
    expect([refused.status, refused.headers.location]).toEqual([303, '/verify?returnTo=%2Faccount']);

    const created = await browser.post<SessionResponseBody>('/identity/session');
    expect(created.status).toBe(201);
    // Workers is production to the kit: the cookie is __Host- (Secure), whatever the local scheme.
    expect(browser.cookies.names()).toEqual(['__Host-vk_visitor']);
    expect(created.json.pollAfterMs).toBeGreaterThan(0); // longPoll: false

    const identificationId = await approveInSandbox(sandbox, created.json.sessionCode);
    const status = await browser.get<StatusResponseBody>('/identity/status');
    expect([status.status, status.json.phase]).toEqual([200, 'approved']);
    const page = await browser.navigate('/account');
    expect([page.status, page.text]).toEqual([200, 'welcome']);

    await createSandboxControl(sandbox).setStatus(identificationId, 'REJECTED');
    const revoked = await deliverWebhook(new Browser(worker.url), {
      secret: webhookSecret,
      identificationId,
      type: 'identification.rejected',
      status: 'REJECTED',
    });
    expect(revoked.status).toBe(204);
    const call = await browser.get<ErrorResponseBody>('/account');
    expect([call.status, call.json.error.code]).toEqual([403, 'NOT_APPROVED']);
  });
}
