import assert from 'node:assert/strict';
import { get } from 'node:http';

/** A browser's page navigation (fetch() cannot send `Sec-Fetch-Mode: navigate`). */
function navigate(url) {
  return new Promise((resolve, reject) => {
    const headers = { accept: 'text/html', 'sec-fetch-mode': 'navigate', 'sec-fetch-site': 'none' };
    get(url, { headers }, (res) => {
      res.resume();
      resolve({ status: res.statusCode, headers: { get: (name) => res.headers[name] } });
    }).on('error', reject);
  });
}

/**
 * What a visitor of an example sees, over real HTTP: no verification yet is the gate's refusal (a
 * redirect to /verify for a page, 403 NOT_APPROVED for a fetch of `api`), never a 500; then a session
 * started through the kit's routes against the sandbox, its status read with the cookies it set,
 * and `api` still refused. `cookies`: the names the session's answer must set, when known.
 */
async function probeGate(url, { api, cookies: names }) {
  const page = await navigate(`${url}/account`);
  assert.equal(page.status, 303, `GET /account (a page) without a verification: ${page.status}`);
  assert.equal(page.headers.get('location'), '/verify?returnTo=%2Faccount');

  const refused = await fetch(`${url}${api}`);
  assert.equal(refused.status, 403, `GET ${api} (fetch) without a verification: ${refused.status}`);
  assert.equal((await refused.json()).error.code, 'NOT_APPROVED');

  const created = await fetch(`${url}/identity/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
    body: '{}',
  });
  assert.equal(
    created.status,
    201,
    `POST /identity/session: ${created.status} ${await created.clone().text()}`,
  );
  const pairs = created.headers.getSetCookie().map((c) => c.split(';')[0]);
  if (names !== undefined)
    assert.deepEqual(
      pairs.map((c) => c.split('=')[0]),
      names,
    );
  const cookie = pairs.join('; ');
  const status = await fetch(`${url}/identity/status`, { headers: { cookie } });
  assert.equal(status.status, 200, `GET /identity/status: ${status.status}`);
  const body = await status.json();
  assert.equal(body.phase, 'awaiting_user');

  const stillGated = await fetch(`${url}${api}`, { headers: { cookie } });
  assert.equal(stillGated.status, 403, `GET ${api} before approval: ${stillGated.status}`);
  const { sessionCode } = await created.json();
  return { ...body, sessionCode, cookie };
}

/** The express example: its gated page /account and its gated API /api/me. */
export const probeExpressExample = (url) => probeGate(url, { api: '/api/me' });

/** The Hono example: /account gated, for a page and for a fetch; the sealed visitor cookie. */
export const probeHonoExample = (url) => probeGate(url, { api: '/account', cookies: ['vk_visitor'] });

/**
 * An App Router app of @verify-kit/next's three README files under `next start`: the Hono example's
 * answers (one gate's rules, in the proxy here); `next start` is production, so the visitor's cookie
 * is `__Host-vk_visitor` (Secure) whatever scheme reaches it.
 */
export const probeNextApp = (url) => probeGate(url, { api: '/account', cookies: ['__Host-vk_visitor'] });
