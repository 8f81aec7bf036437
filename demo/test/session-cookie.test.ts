import { Browser, CookieJar } from '@verify-kit/testkit';
import { describe, expect, it } from 'vitest';
import { useStandInDemo } from './support/stand-in-demo.js';

/*
 * Login fixation: over https the demo's session cookie is `__Host-verify-kit-demo.sid` (Secure,
 * Path=/, no Domain), which a browser lets no sibling subdomain and no plain-http page set; a
 * session cookie under any other name is not read over https. The demo sits behind an HTTPS reverse
 * proxy (TRUST_PROXY=1) that says so with X-Forwarded-Proto: https.
 */

const HTTPS = { 'x-forwarded-proto': 'https' };
const ADA = { name: 'Ada', email: 'ada@example.com' };
const MALLORY = { name: 'Mallory', email: 'mallory@example.com' };

const env = useStandInDemo({ trustProxy: '1' });

/** The Set-Cookie lines of a sign-in, over https or plain http. */
async function signIn(jar: CookieJar, who: typeof ADA, headers: Record<string, string> = HTTPS) {
  const res = await new Browser(env.demo.url, jar).post('/api/demo/sign-in', who, headers);
  expect(res.status).toBe(200);
  const lines = res.headers['set-cookie'];
  return Array.isArray(lines) ? lines : lines === undefined ? [] : [lines];
}

const sessionLine = (lines: string[]) => lines.find((line) => /^(__Host-)?verify-kit-demo\.sid=/.test(line));
const me = async (jar: CookieJar) =>
  (await new Browser(env.demo.url, jar).get<{ user: unknown }>('/api/demo/me', HTTPS)).json.user;

describe('the demo session cookie over https', () => {
  it('is __Host- prefixed, Secure, Path=/, without Domain', async () => {
    const line = sessionLine(await signIn(new CookieJar(), ADA));
    expect(line).toMatch(/^__Host-verify-kit-demo\.sid=/);
    const attributes = (line ?? '').split(';').map((part) => part.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(['path=/', 'secure', 'httponly', 'samesite=lax']));
    expect(attributes.some((attribute) => attribute.startsWith('domain='))).toBe(false);
  });

  it('cannot be planted: a signed-in session under the name a subdomain can set is no session over https', async () => {
    // Mallory signs in herself and plants her session in Ada's browser under the plain name, as a
    // sibling subdomain (Domain=.example.com) or a plain-http page of the site could.
    const mallory = new CookieJar();
    const value = sessionLine(await signIn(mallory, MALLORY))
      ?.split(';')[0]
      ?.split('=')[1];
    expect(value).toBeDefined();
    expect(await me(mallory)).toEqual(MALLORY);
    const ada = new CookieJar();
    ada.set('verify-kit-demo.sid', value ?? '');
    expect(await me(ada)).toBeNull();
    // Mallory's own session, started over plain http, does not carry over either.
    const overHttp = new CookieJar();
    const httpLine = sessionLine(await signIn(overHttp, MALLORY, {}));
    expect(httpLine).toMatch(/^verify-kit-demo\.sid=/);
    expect(httpLine).not.toMatch(/secure/i);
    ada.set('verify-kit-demo.sid', overHttp.get('verify-kit-demo.sid') ?? '');
    expect(await me(ada)).toBeNull();
  });

  it('signs out: the __Host- cookie is cleared with the attributes it was set with', async () => {
    const jar = new CookieJar();
    await signIn(jar, ADA);
    const out = await new Browser(env.demo.url, jar).post('/api/demo/sign-out', {}, HTTPS);
    expect(out.status).toBe(204);
    const cleared = [out.headers['set-cookie'] ?? []].flat().find((line) => line.startsWith('__Host-'));
    expect(cleared).toMatch(/^__Host-verify-kit-demo\.sid=;.*Path=\/.*Secure/);
    expect(await me(jar)).toBeNull();
  });
});
