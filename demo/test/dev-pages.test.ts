import { Browser } from '@verify-kit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningDemo, startDemo } from '../src/start-demo.js';

/*
 * `pnpm demo` (the `dev` option): the pages straight from their sources through Vite in middleware
 * mode, nothing built. Each page carries the shared chrome once, scripts and styles are transformed
 * on request, and a page is still reached only through its route and gate.
 */

let demo: RunningDemo;

beforeAll(async () => {
  demo = await startDemo({ port: 0, reviewDelayMs: 0, dev: true });
});

afterAll(async () => {
  await demo?.close();
});

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('the demo in development (Vite in middleware mode)', () => {
  it('serves each page with the shared head and header exactly once, and with Vite’s client', async () => {
    const browser = new Browser(demo.url);
    expect((await browser.post('/api/demo/sign-in', { name: 'Ada', email: 'ada@example.com' })).status).toBe(
      200,
    );
    const pages = [
      ['/', 200, 'Sign in'],
      ['/verify', 200, 'Verify your identity'],
      ['/playground', 200, 'Scenarios and criteria'],
      ['/no-such-page', 404, 'Page not found'],
    ] as const;
    for (const [path, status, title] of pages) {
      const page = await browser.navigate(path);
      expect(page.status, path).toBe(status);
      expect(page.headers['cache-control'], path).toBe('no-store');
      expect(page.text, path).toMatch(new RegExp(`<title[^>]*>${title} · verify-kit demo</title>`));
      // The pages' words are written in from the English table: no {{key}} is left.
      expect(page.text, path).not.toContain('{{');
      expect(occurrences(page.text, '<meta charset="utf-8">'), path).toBe(1);
      expect(occurrences(page.text, '<link rel="stylesheet" href="./src/styles.css">'), path).toBe(1);
      expect(occurrences(page.text, '<header class="top">'), path).toBe(1);
      expect(occurrences(page.text, '<div id="message"'), path).toBe(1);
      expect(page.text, path).toContain('<script type="module" src="/@vite/client"></script>');
    }
  });

  it('compiles the pages’ TypeScript and serves the stylesheet as CSS, on request', async () => {
    const browser = new Browser(demo.url);
    const script = await browser.get('/src/sign-in.ts');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    expect(script.text).not.toMatch(/\bimport type\b/);

    const styles = await browser.get('/src/styles.css', { accept: 'text/css', 'sec-fetch-dest': 'style' });
    expect(styles.status).toBe(200);
    expect(styles.headers['content-type']).toMatch(/^text\/css/);
  });

  it('reads the workspace packages from their sources (the `source` export condition)', async () => {
    const verify = await new Browser(demo.url).get('/src/verify.ts');
    expect(verify.text).toMatch(/\/packages\/widget\/src\/index\.ts/);
  });

  it('serves a page only through its route: the gated page’s file is not reachable by name', async () => {
    const browser = new Browser(demo.url);
    const byName = await browser.navigate('/account.html');
    expect(byName.status).toBe(404);
    expect(byName.text).not.toContain('Your account');

    const gated = await browser.navigate('/account');
    expect(gated.status).toBe(303);
    expect(gated.headers.location).toBe('/?returnTo=%2Faccount');
  });
});
