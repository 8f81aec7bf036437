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
 * What a visitor of the express example sees, over real HTTP: no verification yet is the gate's
 * refusal (a redirect for a page, 403 for an API call), never a 500; then a session is started
 * through the kit's router against the sandbox and its status read with the cookies it set.
 */
export async function probeExpressExample(url) {
  const page = await navigate(`${url}/account`);
  assert.equal(page.status, 303, `GET /account without a verification: ${page.status}`);
  assert.match(page.headers.get('location'), /^\/verify\?/);

  const api = await fetch(`${url}/api/me`);
  assert.equal(api.status, 403, `GET /api/me without a verification: ${api.status}`);
  assert.equal((await api.json()).error.code, 'NOT_APPROVED');

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
  const cookie = created.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const status = await fetch(`${url}/identity/status`, { headers: { cookie } });
  assert.equal(status.status, 200, `GET /identity/status: ${status.status}`);
  const body = await status.json();
  assert.equal(body.phase, 'awaiting_user');

  const stillGated = await fetch(`${url}/api/me`, { headers: { cookie } });
  assert.equal(stillGated.status, 403, `GET /api/me before approval: ${stillGated.status}`);
  return body;
}

/**
 * What a visitor of the Hono example sees, over real HTTP: before any verification, /account is a
 * redirect to /verify for a page and 403 JSON for fetch; a session started through `kit.router`
 * against the sandbox sets the sealed visitor cookie, and its status reads with it. Resolves with the
 * status body and the Cookie header to go on with.
 */
export async function probeHonoExample(url) {
  const page = await navigate(`${url}/account`);
  assert.equal(page.status, 303, `GET /account (a page) without a verification: ${page.status}`);
  assert.equal(page.headers.get('location'), '/verify?returnTo=%2Faccount');

  const api = await fetch(`${url}/account`);
  assert.equal(api.status, 403, `GET /account (fetch) without a verification: ${api.status}`);
  assert.equal((await api.json()).error.code, 'NOT_APPROVED');

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
  const cookies = created.headers.getSetCookie().map((c) => c.split(';')[0]);
  assert.deepEqual(
    cookies.map((c) => c.split('=')[0]),
    ['vk_visitor'],
  );
  const cookie = cookies.join('; ');
  const status = await fetch(`${url}/identity/status`, { headers: { cookie } });
  assert.equal(status.status, 200, `GET /identity/status: ${status.status}`);
  const body = await status.json();
  assert.equal(body.phase, 'awaiting_user');

  const stillGated = await fetch(`${url}/account`, { headers: { cookie } });
  assert.equal(stillGated.status, 403, `GET /account before approval: ${stillGated.status}`);
  const { sessionCode } = await created.json();
  return { ...body, sessionCode, cookie };
}

/**
 * What a visitor of an App Router app of @verify-kit/next's three README files sees under `next
 * start`: the Hono example's answers (one gate's rules, in the proxy here; /account has no page
 * behind the proxy, which a visitor without a verification never reaches).
 */
export const probeNextApp = probeHonoExample;
