import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import type { SendLinkOffer } from '@verify-kit/protocol';
import { build, type Rolldown } from 'vite';
import { en } from '../src/strings.en.js';
import { type PageOptions, type Reply, StubServer } from './stub-server.js';

export { expect };

/** Attributes of an element that polls every 50 ms. */
export const FAST = 'endpoint="/identity" poll-interval="50"';
/** Attributes of an element that polls every 50 ms and starts a session as soon as it is on the page. */
export const FAST_START = `${FAST} auto-start`;
/** Starts at once; a scheduled poll comes 45 s or more later, so any prompt read has another cause. */
export const SLOW_START = 'endpoint="/identity" poll-interval="60000" auto-start';

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
  /** Opens a test page of the stub (`stub.page(options)`) and waits until the element's title reads `shows`. */
  open: (options: PageOptions, shows: string) => Promise<void>;
  /** Opens a page whose element waits for Start (polling every 50 ms once started) and waits until it shows it. */
  openIdle: () => Promise<void>;
  /** Opens a page whose element starts at once (polling every 50 ms) and waits until it shows the QR code. */
  openStarted: () => Promise<void>;
  /** openStarted, the kit offering to send the link to `offers` (the person's own contacts, masked). */
  openOffering: (offers: SendLinkOffer[]) => Promise<void>;
  /** The kit reports the session approved; waits until the element shows it. */
  kitApproves: () => Promise<void>;
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
  open: async ({ page, stub, widget }, use) => {
    await use((options, shows) => openShowing(page, stub, widget, options, shows));
  },
  openIdle: async ({ open }, use) => {
    await use(() => open({ attrs: FAST }, en.idleTitle));
  },
  openStarted: async ({ open }, use) => {
    await use(() => open({ attrs: FAST_START }, en.awaitingTitle));
  },
  openOffering: async ({ stub, openStarted }, use) => {
    await use(async (offers) => {
      stub.sendLink = offers;
      await openStarted();
    });
  },
  kitApproves: async ({ stub, widget }, use) => {
    await use(async () => {
      stub.setPhase('approved', 'APPROVED');
      await expect(title(widget)).toHaveText(en.approvedTitle);
    });
  },
});

async function openShowing(
  page: Page,
  stub: StubServer,
  widget: Locator,
  options: PageOptions,
  shows: string,
): Promise<void> {
  await page.goto(stub.page(options));
  await expect(title(widget)).toHaveText(shows);
}

/** The kit's answer of error `code` (`{ error: { code, message } }`), with a Retry-After of `retryAfter` s if given. */
export function kitError(status: number, code: string, retryAfter?: string): Reply {
  return {
    status,
    ...(retryAfter === undefined ? {} : { headers: { 'retry-after': retryAfter } }),
    body: { error: { code, message: 'x' } },
  };
}

/**
 * `entry` (a file of test-browser) bundled as an app's bundler makes it: Vite with its defaults, the
 * widget as published (`@verify-kit/widget` is dist/). The entry chunk, and the others' names.
 */
export async function bundle(entry: string): Promise<{ code: string; chunks: string[] }> {
  const output = (await build({
    configFile: false,
    logLevel: 'silent',
    root: fileURLToPath(new URL('..', import.meta.url)),
    build: { write: false, rolldownOptions: { input: fileURLToPath(new URL(entry, import.meta.url)) } },
  })) as Rolldown.RolldownOutput;
  const chunks = output.output.filter((chunk) => chunk.type === 'chunk');
  const main = chunks.find((chunk) => chunk.isEntry);
  if (!main) throw new Error(`vite made no entry chunk of ${entry}`);
  return { code: main.code, chunks: chunks.filter((chunk) => chunk !== main).map((chunk) => chunk.name) };
}

export function events(page: Page): Promise<RecordedEvent[]> {
  return page.evaluate(() => (window as unknown as { __events: RecordedEvent[] }).__events);
}

/** The types of the element's events so far, in order. */
export async function eventTypes(page: Page): Promise<string[]> {
  return (await events(page)).map((event) => event.type);
}

/** axe-core over the element: no violations, or the list of them named by rule and node. */
export async function expectNoAxeViolations(page: Page, state: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).include('verify-identity').analyze();
  const summary = violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(summary, `axe violations in state ${state}`).toEqual([]);
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

/** The session code as the eye sees it, in groups of four (screen readers get it letter by letter). */
export function shownCode(widget: Locator): Locator {
  return widget.locator('[part~="code"] [aria-hidden="true"]');
}

/** The title line, which is also the aria-live region's content. */
export function title(widget: Locator): Locator {
  return widget.locator('[part~="title"]');
}
