import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { StubServer } from './stub-server.js';

export { expect };

export const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
mkdirSync(ARTIFACTS, { recursive: true });

export interface RecordedEvent {
  type: string;
  detail: unknown;
  bubbles: boolean;
  composed: boolean;
  target: string;
}

interface Fixtures {
  /** A fresh stub kit for this test, closed afterwards. */
  stub: StubServer;
  /** The element on the page. */
  widget: Locator;
}

// Each test page records the element's events (caught on `document`: they bubble and are composed)
// and any CSP violation. Init scripts run before the page's own scripts and are not subject to CSP.
export const test = base.extend<Fixtures>({
  stub: async ({ page }, use) => {
    const stub = await new StubServer().start();
    await page.addInitScript(() => {
      const w = window as unknown as { __events: unknown[]; __csp: string[] };
      w.__events = [];
      w.__csp = [];
      for (const type of ['phase-change', 'approved', 'rejected', 'expired', 'verify-identity-error']) {
        document.addEventListener(type, (event) => {
          if (!(event instanceof CustomEvent)) return;
          w.__events.push({
            type,
            detail: event.detail,
            bubbles: event.bubbles,
            composed: event.composed,
            target: (event.target as Element).localName,
          });
        });
      }
      document.addEventListener('securitypolicyviolation', (event) => {
        w.__csp.push(`${event.violatedDirective} ${event.blockedURI}`);
      });
    });
    await use(stub);
    // Every page must run under the strict CSP of the stub (no eval, no inline script or style).
    if (!page.isClosed() && page.url().startsWith(stub.url)) expect(await cspViolations(page)).toEqual([]);
    await stub.close();
  },
  widget: async ({ page }, use) => {
    await use(page.locator('verify-identity'));
  },
});

export function events(page: Page): Promise<RecordedEvent[]> {
  return page.evaluate(() => (window as unknown as { __events: RecordedEvent[] }).__events);
}

export function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);
}

/** Emulates the tab being hidden or shown again (what the browser does on a tab switch). */
export async function setHidden(page: Page, hidden: boolean): Promise<void> {
  await page.evaluate((hidden) => {
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
    Object.defineProperty(document, 'visibilityState', {
      configurable: true,
      get: () => (hidden ? 'hidden' : 'visible'),
    });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}

/** The title line, which is also the aria-live region's content. */
export function title(widget: Locator): Locator {
  return widget.locator('[part~="title"]');
}
