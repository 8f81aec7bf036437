import { randomBytes } from 'node:crypto';
import { generateWebhookSecret } from '@verify-kit/client';
import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import { createSandboxControl } from '@verify-kit/sandbox/control';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser } from './browser.js';
import { CookieJar } from './cookie-jar.js';
import type { InstanceEnv } from './instance-process.js';
import { fromAddress } from './source-address.js';
import { until } from './until.js';
import { approveInSandbox } from './verifications.js';
import { deliverWebhook } from './webhooks.js';

// A shell's app on two instances (two processes, each with its own memory) and no shared store, as
// serverless platforms and fleets run it: requests alternate between them, webhooks reach one only.
// The anonymous visitor's sealed cookie carries the verification, so every instance decides alike.

/** The kit's maxAgeMs on the instances (MAX_AGE_MS): how soon a revocation heard by one reaches the other. */
const MAX_AGE_MS = 1500;
/** What one request past maxAgeMs and the re-read it waits for may add to that (decisions.ts). */
const REREAD_SLACK_MS = 3000;

interface Created {
  sessionCode: string;
}

/** One instance of the app under test, started by the shell's test. */
export interface StoreLessInstance {
  url: string;
  stop(): Promise<void>;
}

/**
 * The suite every shell and runtime runs: `start(env)` starts one instance of its app (the kit from
 * `env` as kitOptionsFromEnv reads it: under /identity, `/account` gated, answering a request that is
 * no navigation 403 JSON when refused, `POST /forget`), called twice. Node processes:
 * `(env) => startInstanceProcess(entry, env)`.
 */
export function describeInstancesWithoutStore(
  shell: string,
  start: (env: InstanceEnv & Record<string, string>) => Promise<StoreLessInstance>,
): void {
  describe(`${shell} on two instances with no shared store`, () => {
    let sandbox: Sandbox;
    const instances: StoreLessInstance[] = [];
    const webhookSecret = generateWebhookSecret();
    const agents: ReturnType<typeof fromAddress>[] = [];
    let addresses = 0;

    beforeAll(async () => {
      sandbox = await startSandbox({ port: 0, reviewDelayMs: 0 });
      const env: InstanceEnv & Record<string, string> = {
        IDV_BASE_URL: sandbox.url,
        IDV_API_KEY: sandbox.apiKey,
        IDV_WEBHOOK_SECRET: webhookSecret,
        VERIFY_KIT_SECRET: randomBytes(32).toString('base64url'),
        MAX_AGE_MS: String(MAX_AGE_MS),
        NODE_ENV: 'production',
      };
      instances.push(...(await Promise.all([start(env), start(env)])));
    }, 60_000);
    afterAll(async () => {
      await Promise.all(instances.map((instance) => instance.stop()));
      await Promise.all(agents.map((agent) => agent.close()));
      await sandbox?.close();
    });

    /** One browser (from a loopback address of its own: the limits count it alone), balanced to A or B. */
    function person(jar = new CookieJar()) {
      const [a, b] = instances as [StoreLessInstance, StoreLessInstance];
      const dispatcher = fromAddress(`127.0.2.${1 + (addresses++ % 250)}`);
      agents.push(dispatcher);
      return {
        onA: new Browser(a.url, jar, { dispatcher }),
        onB: new Browser(b.url, jar, { dispatcher }),
        jar,
      };
    }
    const holder = () => randomBytes(16).toString('base64url');

    /** Started on A, approved at the service, a visit begun on B. */
    async function verifiedPerson() {
      const someone = person();
      const started = await someone.onA.post<Created>('/identity/session', { holder: holder() });
      expect(started.status).toBe(201);
      const identificationId = await approveInSandbox(sandbox, started.json.sessionCode);
      expect((await someone.onB.get('/account')).status).toBe(200);
      return { ...someone, identificationId };
    }

    it('a verified person is served on both; a reload on the other resumes the same session (none billed twice)', async () => {
      const { onA, onB } = person();
      const mine = holder();
      const created = await onA.post<Created>('/identity/session', { holder: mine });
      const reloaded = await onB.post<Created>('/identity/session', { holder: mine });
      expect([created.status, reloaded.status]).toEqual([201, 201]);
      expect(reloaded.json.sessionCode).toBe(created.json.sessionCode);
      expect((await onB.get<{ phase: string }>('/identity/status')).json.phase).toBe('awaiting_user');
      expect((await onA.get('/account')).status).toBe(403);
      await approveInSandbox(sandbox, created.json.sessionCode);
      const answers: number[] = [];
      for (const who of [onB, onA, onB, onA, onB, onA]) answers.push((await who.get('/account')).status);
      expect(answers).toEqual([200, 200, 200, 200, 200, 200]);
      for (const who of [onA, onB]) {
        expect((await who.get<{ phase: string }>('/identity/status')).json.phase).toBe('approved');
      }
    });

    it(`a rejection webhook to A alone: refused there at once, and on B within maxAgeMs (${MAX_AGE_MS} ms)`, async () => {
      const { onA, jar, identificationId } = await verifiedPerson();
      expect((await onA.get('/account')).status).toBe(200);
      // B is asked with the cookie from before A's refusal (a browser whose requests all went to B).
      const onlyB = person(jar.clone()).onB;
      await createSandboxControl(sandbox).setStatus(identificationId, 'REJECTED');
      const heardAt = Date.now();
      const webhook = await deliverWebhook(onA, {
        secret: webhookSecret,
        identificationId,
        type: 'identification.rejected',
      });
      expect(webhook.status).toBe(204);
      expect((await onA.get('/account')).status).toBe(403);
      await until(async () => (await onlyB.get('/account')).status === 403, 'B refuses');
      expect(Date.now() - heardAt).toBeLessThan(MAX_AGE_MS + REREAD_SLACK_MS);
    });

    it('a tampered cookie is refused on both (403 at the gate, 404 on /status), never a 500 or a pass', async () => {
      const { jar } = await verifiedPerson();
      for (const [name, value] of jar) {
        const at = Math.floor(value.length / 2);
        const tampered = `${value.slice(0, at)}${value[at] === 'A' ? 'B' : 'A'}${value.slice(at + 1)}`;
        const forged = new CookieJar();
        forged.set(name, tampered);
        const { onA, onB } = person(forged);
        for (const who of [onA, onB]) {
          expect((await who.get('/account')).status).toBe(403);
          expect((await who.get('/identity/status')).status).toBe(404);
        }
      }
    });

    it("a cookie planted before approval never passes: the victim's start makes a verification of its own", async () => {
      const attacker = person();
      const planted = await attacker.onA.post<Created>('/identity/session', { holder: holder() });
      const victim = person(attacker.jar.clone());
      const own = await victim.onB.post<Created>('/identity/session', { holder: holder() });
      expect(own.status).toBe(201);
      expect(own.json.sessionCode).not.toBe(planted.json.sessionCode);
      await approveInSandbox(sandbox, own.json.sessionCode);
      for (const who of [victim.onA, victim.onB]) expect((await who.get('/account')).status).toBe(200);
      for (const who of [attacker.onA, attacker.onB]) expect((await who.get('/account')).status).toBe(403);
    });
  });
}
