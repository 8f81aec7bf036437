import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { expect, type FrameLocator, type Locator, type Page } from '@playwright/test';
import type { OutboxMessage } from '@verify-kit/sandbox/control';
import { outbox, type SandboxControl } from './sandbox-control.js';

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

export type Preset =
  | 'Plain approval'
  | 'OTP by e-mail'
  | 'OTP by phone'
  | 'Contact-less'
  | 'Turkish name, accent-insensitive'
  | 'Passports only (reject otherwise)';

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

/** In the simulator (iframe or a phone page): type the one-time password `code` and send it. */
export async function enterOtp(app: FrameLocator | Page, code: string): Promise<void> {
  await app.getByTestId('otp-input').fill(code);
  await app.getByTestId('otp-submit').click();
}

/** What the identity app opens for a deep link: the simulator's page of the session it names. */
export function appPageOf(deepLink: string): string {
  return deepLink
    .replace(/^idv:\/\/app-url\//, '')
    .replace('/verification-session/', '/app/verification-session/');
}

export interface BoundIds {
  verificationSessionId: string;
  identificationId: string;
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

const ARTIFACTS = new URL('../artifacts/screenshots/', import.meta.url);
const DOCS = new URL('../screenshots/', import.meta.url);

/**
 * The demo as a person uses it in one page (the `site` fixture is the test's page; another tab or
 * browser: `new DemoSite(page)`). Its JSON API is read through the page's own cookies.
 */
export class DemoSite {
  constructor(readonly page: Page) {}

  /** The sign-in form on the front page, filled and sent (`returnTo`: where it leads, default /verify). */
  async signInAs(person: DemoPerson, returnTo?: string): Promise<void> {
    await this.page.goto(returnTo === undefined ? '/' : `/?returnTo=${encodeURIComponent(returnTo)}`);
    await this.page.getByLabel('Name').fill(person.name);
    await this.page.getByLabel('E-mail').fill(person.email);
    await this.page.getByRole('button', { name: 'Sign in with the demo account' }).click();
  }

  /** A new person (or `person`) signs in and reaches /verify, where the widget starts a session. */
  async signIn(person: DemoPerson = newPerson()): Promise<DemoPerson> {
    await this.signInAs(person);
    await this.page.waitForURL(/\/verify$/);
    // The widget creates the first session at once; the kit gives the browser session a new id with
    // it, so wait for that answer before the next navigation (it would carry the old cookie).
    await this.expectPhase('awaiting_user');
    return person;
  }

  /** A new person (or `person`) signs in, shows the phone a document it approves, and reaches the account page. */
  async signInVerified(person?: DemoPerson): Promise<DemoPerson> {
    const signedIn = await this.signIn(person);
    await this.submitDocument();
    await this.expectPhase('approved');
    await this.continueToAccount();
    return signedIn;
  }

  /** A new person signs in (signIn), then runs the playground's `preset` as `adjust` leaves it (runScenario). */
  async signInToScenario(preset: Preset, adjust?: (page: Page) => Promise<void>): Promise<DemoPerson> {
    const person = await this.signIn();
    await this.runScenario(preset, adjust);
    return person;
  }

  /** The playground, once its form holds the saved scenario and listens (before, a click is lost). */
  async openPlayground(): Promise<void> {
    await this.page.goto('/playground');
    await expect(this.page.locator('form[data-ready]')).toBeAttached();
  }

  /** Picks a preset on the playground, lets the test adjust the form, then saves and runs it. */
  async runScenario(preset: Preset, adjust?: (page: Page) => Promise<void>): Promise<void> {
    await this.openPlayground();
    await this.page.getByRole('button', { name: preset, exact: true }).click();
    await adjust?.(this.page);
    await this.page.getByRole('button', { name: 'Save and run' }).click();
    await this.page.waitForURL(/\/verify$/);
  }

  get widget(): Locator {
    return this.page.locator('verify-identity');
  }

  /** One of the widget's ::part()s in its shadow DOM, e.g. `qr`, `deep-link`, `send-link`. */
  part(name: string): Locator {
    return this.widget.locator(`[part~="${name}"]`);
  }

  /** The phase the widget reported in its last phase-change event (the page mirrors it). */
  async expectPhase(phase: string): Promise<void> {
    await expect(this.widget).toHaveAttribute('data-phase', phase);
  }

  /** The 8-character code the widget shows, without the space that groups it. */
  async sessionCode(): Promise<string> {
    const text = await this.widget.locator('[part~="code"] [aria-hidden="true"]').textContent();
    return (text ?? '').replace(/\s+/g, '');
  }

  /** The phone beside the widget: the sandbox's simulator in the demo's iframe. */
  get phone(): FrameLocator {
    return this.page.frameLocator('#simulator');
  }

  /** In the phone beside the widget: pick a test document and submit it (submitDocument). */
  submitDocument(choice?: DocumentChoice): Promise<void> {
    return submitDocument(this.phone, choice);
  }

  /** The sandbox's reviewer in the demo's phone panel (shown in manual review), found by its heading. */
  reviewer(heading = 'The reviewer'): Locator {
    return this.page.getByRole('region', { name: heading });
  }

  async continueToAccount(): Promise<void> {
    await this.widget
      .getByRole('link', {
        name: /Continue to your account|Hesabınıza devam edin|Weiter zu Ihrem Konto|تابع إلى حسابك/,
      })
      .click();
    await this.expectGateOpen(false);
  }

  /** The account page opens: the gate let the person through (it says so in the page's language). */
  async expectGateOpen(navigate = true): Promise<void> {
    if (navigate) await this.page.goto('/account');
    await expect(this.page).toHaveURL(/\/account$/);
    await expect(this.page.locator('#account-state')).toContainText(
      /Your identity is verified|Kimliğiniz doğrulandı|Ihre Identität ist bestätigt|تم التحقق من هويتك/,
    );
  }

  /** The account page stays shut: a navigation is sent back to /verify, the JSON API answers 403. */
  async expectGateShut(): Promise<void> {
    await this.page.goto('/account');
    await expect(this.page).toHaveURL(/\/verify(\?|$)/);
    expect((await this.apiGet('/api/demo/account')).status()).toBe(403);
  }

  /**
   * A GET on the demo's JSON API from the test runner (not the page). Playwright's own HTTP client
   * keeps sockets alive, and the demo closes an idle one after 5 s (keepAliveTimeout): a request sent
   * into that close gets ECONNRESET, which a browser retries by itself. So does this (GET only).
   */
  apiGet(path: string) {
    return this.page.request.get(path, { maxRetries: 2 });
  }

  /** The verification bound to this browser session, as the demo's own API tells the page. */
  async boundIds(): Promise<BoundIds> {
    const simulator = await this.apiGet('/api/demo/simulator-url');
    expect(simulator.status()).toBe(200);
    const { url } = (await simulator.json()) as { url: string };
    const { identificationId } = (await (await this.apiGet('/api/demo/activity')).json()) as {
      identificationId: string;
    };
    return { verificationSessionId: url.split('/').pop() ?? '', identificationId };
  }

  /** What `sandbox` sent (links, one-time passwords) for the verification bound to this browser session. */
  async messagesSent(sandbox: SandboxControl): Promise<OutboxMessage[]> {
    const { verificationSessionId } = await this.boundIds();
    return (await outbox(sandbox)).filter((m) => m.verificationSessionId === verificationSessionId);
  }

  async activity(): Promise<ActivityEntry[]> {
    const response = await this.apiGet('/api/demo/activity');
    return ((await response.json()) as { entries: ActivityEntry[] }).entries;
  }

  /**
   * A screenshot of a main state into artifacts/; with E2E_UPDATE_DOCS_SCREENSHOTS=1 the ones the
   * README shows are refreshed in screenshots/ too.
   */
  async snap(name: string, options: { docs?: boolean; element?: Locator } = {}): Promise<void> {
    mkdirSync(ARTIFACTS, { recursive: true });
    const path = new URL(`${name}.png`, ARTIFACTS).pathname;
    const buffer = options.element
      ? await options.element.screenshot({ path })
      : await this.page.screenshot({ path });
    if (options.docs && process.env.E2E_UPDATE_DOCS_SCREENSHOTS === '1') {
      mkdirSync(DOCS, { recursive: true });
      writeFileSync(new URL(`${name}.png`, DOCS), buffer);
    }
  }
}
