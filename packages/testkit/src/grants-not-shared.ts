import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser } from './browser.js';
import { type SharedCache, startSharedCache } from './shared-cache.js';
import { approveInSandbox } from './verifications.js';

/** What the handlers of the app under test answer with, as a page that a shared cache may keep. */
export const CACHEABLE = 'public, s-maxage=600';

/** A shell's app for describeGrantsNotShared: the kit under /identity on `sandbox`. */
export interface CacheableApp {
  url: string;
  close(): Promise<void>;
}

/**
 * A granted answer is the person's alone (issue 40, finding 4): through a real shared cache (HAProxy's),
 * a page only verified people may see, whose handler says Cache-Control `CACHEABLE`, never reaches
 * anybody else. `start` serves the shell's app with `/cacheable` gated (any refusal: 303 or 403) and
 * `/public` not gated, both answering `CACHEABLE` — the control that shows the cache keeps what it may.
 */
export function describeGrantsNotShared(
  shell: string,
  start: (sandbox: Sandbox) => Promise<CacheableApp>,
): void {
  describe(`${shell}: a granted page is never kept by a shared cache`, () => {
    let sandbox: Sandbox;
    let app: CacheableApp;
    let cache: SharedCache;
    beforeAll(async () => {
      sandbox = await startSandbox({ port: 0, reviewDelayMs: 0 });
      app = await start(sandbox);
      cache = await startSharedCache(app.url);
    });
    afterAll(async () => {
      await cache?.stop();
      await app?.close();
      await sandbox?.close();
    });

    it('the verified person gets it, Cache-Control: private, no-store; three never-verified visitors after them never do', async () => {
      const verified = new Browser(cache.url);
      const started = await verified.post<{ sessionCode: string }>('/identity/session');
      await approveInSandbox(sandbox, started.json.sessionCode);
      for (let visit = 0; visit < 2; visit++) {
        const page = await verified.get('/cacheable');
        expect(page.status).toBe(200);
        expect(page.headers['cache-control']).toBe('private, no-store');
      }
      for (let visitor = 0; visitor < 3; visitor++) {
        expect((await new Browser(cache.url).get('/cacheable')).status).not.toBe(200);
      }
    });

    it('(the control) the cache keeps and serves what its Cache-Control lets it', async () => {
      await new Browser(cache.url).get('/public');
      const again = await new Browser(cache.url).get('/public');
      expect(again.status).toBe(200);
      expect(again.headers.age).toBeDefined();
    });
  });
}
