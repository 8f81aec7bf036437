import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { type APIRequestContext, expect, type FrameLocator, type Locator, type Page } from '@playwright/test';

/*
 * What a person does in the demo, as steps the scenarios share. Selectors are the ones a person
 * reads (labels, roles) on the demo's pages, the widget's parts, and the simulator's test ids.
 */

export interface DemoPerson {
  name: string;
  email: string;
}

/** A new person for each test, so parallel tests never share an outbox recipient. */
export function newPerson(name = 'Ada Lovelace'): DemoPerson {
  return { name, email: `ada.${randomUUID().slice(0, 8)}@example.com` };
}

export async function signIn(page: Page, person: DemoPerson = newPerson()): Promise<DemoPerson> {
  await page.goto('/');
  await page.getByLabel('Name').fill(person.name);
  await page.getByLabel('E-mail').fill(person.email);
  await page.getByRole('button', { name: 'Sign in with the demo account' }).click();
  await page.waitForURL(/\/verify$/);
  // The widget creates the first session at once; the kit gives the browser session a new id with
  // it, so wait for that answer before the next navigation (it would carry the old cookie).
  await expectPhase(page, 'awaiting_user');
  return person;
}

export type Preset =
  | 'Plain approval'
  | 'OTP by e-mail'
  | 'OTP by phone'
  | 'Contact-less'
  | 'Turkish name, accent-insensitive'
  | 'Passports only (reject otherwise)';

/** Picks a preset on the playground, lets the test adjust the form, then saves and runs it. */
export async function runScenario(
  page: Page,
  preset: Preset,
  adjust?: (page: Page) => Promise<void>,
): Promise<void> {
  await page.goto('/playground');
  await page.getByRole('button', { name: preset, exact: true }).click();
  await adjust?.(page);
  await page.getByRole('button', { name: 'Save and run' }).click();
  await page.waitForURL(/\/verify$/);
}

export const widget = (page: Page): Locator => page.locator('verify-identity');

/** One of the widget's ::part()s in its shadow DOM, e.g. `qr`, `deep-link`, `send-link`. */
export const widgetPart = (page: Page, part: string): Locator => widget(page).locator(`[part~="${part}"]`);

/** The phase the widget reported in its last phase-change event (the page mirrors it). */
export async function expectPhase(page: Page, phase: string): Promise<void> {
  await expect(widget(page)).toHaveAttribute('data-phase', phase);
}

/** The 8-character code the widget shows, without the space that groups it. */
export async function sessionCodeOf(page: Page): Promise<string> {
  const text = await widget(page).locator('[part~="code"] [aria-hidden="true"]').textContent();
  return (text ?? '').replace(/\s+/g, '');
}

/** The phone beside the widget: the sandbox's simulator in the demo's iframe. */
export const phone = (page: Page): FrameLocator => page.frameLocator('#simulator');

export interface DocumentChoice {
  /** A test document of the simulator (its list, e.g. tr-id-card: ŞEYMA IŞIK). */
  preset?: string;
  /** What the sandbox's reviewer does: approve, manual_review, resubmit, reject. */
  scenario?: 'approve' | 'manual_review' | 'resubmit' | 'reject';
}

/** In the simulator (iframe or a phone page): pick a test document and submit it. */
export async function submitDocument(app: FrameLocator | Page, choice: DocumentChoice = {}): Promise<void> {
  await expect(app.getByTestId('step-document')).toBeVisible();
  await app.getByTestId('document-preset').selectOption(choice.preset ?? 'tr-id-card');
  await app.getByTestId('scenario').selectOption(choice.scenario ?? 'approve');
  await app.getByTestId('document-submit').click();
}

/** The sandbox's reviewer in the demo's phone panel (shown in manual review), found by its heading. */
export const reviewer = (page: Page, heading = 'The reviewer'): Locator =>
  page.getByRole('region', { name: heading });

/** What the identity app opens for a deep link: the simulator's page of the session it names. */
export function appPageOf(deepLink: string): string {
  return deepLink
    .replace(/^idv:\/\/app-url\//, '')
    .replace('/verification-session/', '/app/verification-session/');
}

export async function continueToAccount(page: Page): Promise<void> {
  await widget(page)
    .getByRole('link', {
      name: /Continue to your account|Hesabınıza devam edin|Weiter zu Ihrem Konto|تابع إلى حسابك/,
    })
    .click();
  await expectGateOpen(page, false);
}

/** The account page opens: the gate let the person through (it says so in the page's language). */
export async function expectGateOpen(page: Page, navigate = true): Promise<void> {
  if (navigate) await page.goto('/account');
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.locator('#account-state')).toContainText(
    /Your identity is verified|Kimliğiniz doğrulandı|Ihre Identität ist bestätigt|تم التحقق من هويتك/,
  );
}

/**
 * A GET on the demo's JSON API from the test runner (not the page). Playwright's own HTTP client
 * keeps sockets alive, and the demo closes an idle one after 5 s (keepAliveTimeout): a request sent
 * into that close gets ECONNRESET, which a browser retries by itself. So does this (GET only).
 */
export function apiGet(request: APIRequestContext, path: string) {
  return request.get(path, { maxRetries: 2 });
}

/** The account page stays shut: a navigation is sent back to /verify, the JSON API answers 403. */
export async function expectGateShut(page: Page): Promise<void> {
  await page.goto('/account');
  await expect(page).toHaveURL(/\/verify(\?|$)/);
  const api = await apiGet(page.request, '/api/demo/account');
  expect(api.status()).toBe(403);
}

export interface BoundIds {
  verificationSessionId: string;
  identificationId: string;
}

/** The verification bound to this browser session, as the demo's own API tells the page. */
export async function boundIds(request: APIRequestContext): Promise<BoundIds> {
  const simulator = await apiGet(request, '/api/demo/simulator-url');
  expect(simulator.status()).toBe(200);
  const { url } = (await simulator.json()) as { url: string };
  const activity = await apiGet(request, '/api/demo/activity');
  const { identificationId } = (await activity.json()) as { identificationId: string };
  return { verificationSessionId: url.split('/').pop() ?? '', identificationId };
}

export interface ActivityEntry {
  kind: 'webhook' | 'status_change' | 'status_call' | 'gate';
  /** ISO time on the demo's clock (this machine's). */
  at: string;
  type?: string;
  status?: string;
  outcome?: number | string;
  /** A gate's answer: the path it guarded. */
  path?: string;
  answer?: number;
  /** A gate's answer: `read` from the service, or `stored` (the visit's stored decision). */
  source?: 'read' | 'stored';
}

export async function activity(request: APIRequestContext): Promise<ActivityEntry[]> {
  const response = await apiGet(request, '/api/demo/activity');
  return ((await response.json()) as { entries: ActivityEntry[] }).entries;
}

const ARTIFACTS = new URL('../artifacts/screenshots/', import.meta.url);
const DOCS = new URL('../screenshots/', import.meta.url);

/**
 * A screenshot of a main state into artifacts/; with E2E_UPDATE_DOCS_SCREENSHOTS=1 the ones the
 * README shows are refreshed in screenshots/ too.
 */
export async function snap(
  page: Page,
  name: string,
  options: { docs?: boolean; element?: Locator } = {},
): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = new URL(`${name}.png`, ARTIFACTS).pathname;
  const buffer = options.element
    ? await options.element.screenshot({ path })
    : await page.screenshot({ path });
  if (options.docs && process.env.E2E_UPDATE_DOCS_SCREENSHOTS === '1') {
    mkdirSync(DOCS, { recursive: true });
    writeFileSync(new URL(`${name}.png`, DOCS), buffer);
  }
}
