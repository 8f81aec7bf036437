import { en } from '../src/strings.en.js';
import { expect, SLOW_START, test, title } from './fixtures.js';

/** Resolves once the QR <img> is in the element, decoded, with a picture in it. */
function qrPainted(page: import('@playwright/test').Page) {
  return page.waitForFunction(async () => {
    const img = document.querySelector('verify-identity')?.shadowRoot?.querySelector('img');
    if (!img) return false;
    await img.decode().catch(() => undefined);
    return img.complete && img.naturalWidth > 0;
  });
}

test('the QR is painted with one request after the click: the session answer carries the image', async ({
  page,
  stub,
  widget,
  openIdle,
}) => {
  await openIdle();
  const requests: string[] = [];
  page.on('request', (request) => {
    // The status follower's read starts with the answer; it is not on the way to the QR.
    const url = new URL(request.url());
    if (url.pathname !== '/identity/status') requests.push(`${request.method()} ${url.pathname}`);
  });
  await page.getByRole('button', { name: en.start }).click();
  await qrPainted(page);
  expect(requests).toEqual(['POST /identity/session']);
  await expect(widget.getByRole('img', { name: en.qrAlt })).toHaveAttribute('src', /^data:image\/svg\+xml,/);
  // And no request for an image later either (e.g. a lazy one).
  await expect(title(widget)).toHaveText(en.awaitingTitle);
  expect(stub.log.filter((r) => r.path.endsWith('.svg'))).toEqual([]);
});

test('a reload of a page with a live session paints the QR from the resumed answer alone', async ({
  page,
  stub,
}) => {
  await page.goto(stub.page({ attrs: SLOW_START }));
  await qrPainted(page);
  const requests: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/identity/') && url.pathname !== '/identity/status') {
      requests.push(`${request.method()} ${url.pathname}`);
    }
  });
  await page.reload();
  await qrPainted(page);
  expect(requests).toEqual(['POST /identity/session']);
  expect(stub.sessions).toBe(1);
});

test('with auto-start the session is asked for before the element first renders', async ({ page, stub }) => {
  // Init scripts run before the page's: record, at each call of fetch, whether the element had rendered.
  await page.addInitScript(() => {
    const w = window as unknown as { __renderedAtFetch: boolean[] };
    w.__renderedAtFetch = [];
    const fetch = window.fetch.bind(window);
    window.fetch = (input, init) => {
      const root = document.querySelector('verify-identity')?.shadowRoot;
      if (String(input).endsWith('/session'))
        w.__renderedAtFetch.push(!!root?.querySelector('[part~="base"]'));
      return fetch(input, init);
    };
  });
  await page.goto(stub.page({ attrs: SLOW_START }));
  await qrPainted(page);
  const renderedAtFetch = await page.evaluate(
    () => (window as unknown as { __renderedAtFetch: boolean[] }).__renderedAtFetch,
  );
  expect(renderedAtFetch).toEqual([false]);
});
