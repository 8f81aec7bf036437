import {
  isFinalPhase,
  type Locale,
  type Phase,
  type SendLinkChannel,
  type SessionRequestBody,
  type SessionResponseBody,
  type StatusResponseBody,
} from '@verify-kit/protocol';
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { awaitingView } from './awaiting-view.js';
import { emit } from './emit.js';
import { hasStrings, loadStrings, localeOf, shownLocale, stringsOf } from './locales.js';
import { holder, RequestError, requestJson } from './request.js';
import { startRetryDelay } from './retry-policy.js';
import { StatusFollower } from './status-follower.js';
import type { VerifyIdentityStrings } from './strings.en.js';
import { styles } from './verify-identity.styles.js';

/** What the element shows: before a session, while creating it, a phase of the kit, or an error. */
export type VerifyIdentityView = 'idle' | 'starting' | Phase | 'error';

/** Detail of `phase-change`, `approved`, `rejected` and `expired`. */
export interface PhaseChangeDetail {
  phase: Phase;
  status: string;
}

/** Detail of `verify-identity-error`. */
export interface ErrorDetail {
  /** The kit's error code, or NETWORK_ERROR, BAD_RESPONSE, HTTP_<status>. */
  code: string;
  /** A message for people, in the element's locale. */
  message: string;
}

/** Time before the link may be sent again. */
const RESEND_MS = 30_000;

/**
 * @summary Verifies the person's identity with the verify-kit server kit: creates a session, hands it
 * to the identity app (deep link on a phone, QR code on a desktop, the web page without the app),
 * follows the review and reports the outcome.
 *
 * @fires {CustomEvent<PhaseChangeDetail>} phase-change - The phase changed (also for the first phase of a session).
 * @fires {CustomEvent<PhaseChangeDetail>} approved - The identity was approved.
 * @fires {CustomEvent<PhaseChangeDetail>} rejected - The identity was rejected.
 * @fires {CustomEvent<PhaseChangeDetail>} expired - The session expired before a decision.
 * @fires {CustomEvent<ErrorDetail>} verify-identity-error - A call to the kit failed; the element shows a retry.
 *
 * @slot done - Shown in the approved state: the page's own content, e.g. a Continue link.
 * @slot rejected - Shown in the rejected state: e.g. a link to the product's help.
 *
 * @csspart base - The card around everything.
 * @csspart title - The status line, also announced to screen readers.
 * @csspart text - Explanations under the title.
 * @csspart button - Every button (and the deep link).
 * @csspart start - The Start button.
 * @csspart qr - The QR code image.
 * @csspart deep-link - The link that opens the app on this device (phones and touch screens).
 * @csspart web-page - The link to the session's web page, for people without the app.
 * @csspart code - The 8-character session code.
 * @csspart copy - The button copying the code.
 * @csspart time - The time left.
 * @csspart send-link - Sending the link to the person's own e-mail or phone (masked), when the kit offers it.
 * @csspart send - Its buttons, one per channel.
 * @csspart retry - The button of the error and rejected states.
 *
 * @cssprop --verify-identity-background - Card background.
 * @cssprop --verify-identity-color - Text colour.
 * @cssprop --verify-identity-muted-color - Secondary text colour.
 * @cssprop --verify-identity-accent - Primary buttons and links.
 * @cssprop --verify-identity-on-accent - Text on primary buttons.
 * @cssprop --verify-identity-success - The approved state.
 * @cssprop --verify-identity-danger - Rejected, expired, error states and the last two minutes.
 * @cssprop --verify-identity-border - Card border and spinner track.
 * @cssprop --verify-identity-focus-ring - The focus outline (defaults to the accent).
 * @cssprop --verify-identity-radius - Corner radius of the card (buttons use 3/4 of it).
 * @cssprop --verify-identity-spacing - Space between blocks.
 * @cssprop --verify-identity-font - Font family.
 */
export class VerifyIdentity extends LitElement {
  static override styles = styles;

  static override properties = {
    endpoint: {},
    locale: {},
    autoStart: { type: Boolean, attribute: 'auto-start' },
    pollInterval: { type: Number, attribute: 'poll-interval' },
    strings: { attribute: false },
    _view: { state: true },
    _session: { state: true },
    _error: { state: true },
    _copy: { state: true },
    _refused: { state: true },
    _now: { state: true },
  };

  /** Where the kit's router is mounted (same origin), e.g. `/identity`. */
  declare endpoint: string;
  /** `en`, `tr`, `de` or `ar`; defaults to the document's `lang`, then `en`. Sent to the kit. */
  declare locale: string;
  /** Create (or resume) the session when connected instead of showing a Start button. */
  declare autoStart: boolean;
  /** Base interval in ms of plain polling and of the retry backoff (long-polling needs none). */
  declare pollInterval: number;
  /** Your own strings, over the locale's table (any subset of the keys). */
  declare strings: Partial<VerifyIdentityStrings>;

  declare private _view: VerifyIdentityView;
  declare private _session?: SessionResponseBody;
  declare private _error?: ErrorDetail;
  declare private _copy: '' | 'copied' | 'copyFailed';
  declare private _refused: '' | 'sendFailed' | 'errorBusy';
  declare private _now: number;

  #phase = '';
  #call = 0;
  #focusInside = false;
  #sentAt = 0;
  #clock?: ReturnType<typeof setInterval>;
  #langObserver?: MutationObserver;
  readonly #follower = new StatusFollower(this, {
    url: () => `${this.#base()}/status`,
    interval: () => this.pollInterval,
    onStatus: (body) => this.#apply(body),
    onError: (error) => this.#fail(error),
  });

  constructor() {
    super();
    this.endpoint = '/identity';
    this.locale = '';
    this.autoStart = false;
    this.pollInterval = 2000;
    this.strings = {};
    this._view = 'idle';
    this._copy = '';
    this._refused = '';
    this._now = Date.now();
  }

  /** The current view (read-only). */
  get view(): VerifyIdentityView {
    return this._view;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#langObserver = new MutationObserver(() => this.requestUpdate());
    this.#langObserver.observe(document.documentElement, { attributeFilter: ['lang'] });
    this.#tick(this._view === 'awaiting_user');
    // Attached with `auto-start`: the request leaves before the first render (and any strings' file).
    if (this.autoStart && this._view === 'idle') this.start();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#langObserver?.disconnect();
    this.#tick(false);
  }

  /**
   * Creates a session, or resumes the one bound to this browser session; `restart` asks the kit
   * for a new one. A 409, 429 or 503 is asked again as `startRetryDelay` says.
   */
  async start(restart = false): Promise<void> {
    this._view = 'starting';
    this._session = undefined;
    await this.#create(restart ? { restart } : {});
  }

  /** POST /session; supersedes any call and any following still under way. */
  async #create(body: SessionRequestBody): Promise<void> {
    const call = ++this.#call;
    // A send keeps following the session on screen: a refused send leaves it as it is.
    const sending = !!body.sendTo;
    if (!sending) this.#follower.stop();
    for (let attempt = 1; ; attempt++) {
      let session: SessionResponseBody;
      try {
        session = await requestJson<SessionResponseBody>(`${this.#base()}/session`, {
          method: 'POST',
          headers: { accept: 'application/json', 'content-type': 'application/json' },
          body: JSON.stringify({ ...body, locale: this.#lang(), holder: holder() }),
        });
      } catch (error) {
        if (call !== this.#call) return;
        const failure = error instanceof RequestError ? error : new RequestError('UNEXPECTED', -1);
        const wait = startRetryDelay(failure, attempt, sending);
        if (wait === undefined) {
          if (!sending) return this.#fail(failure);
          this.#sentAt = 0;
          this._refused = failure.status === 429 ? 'errorBusy' : 'sendFailed';
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, wait));
        if (call !== this.#call) return;
        continue;
      }
      if (call !== this.#call) return;
      this._session = session;
      this.#phase = '';
      this.#apply(session);
      this.#follower.follow(session.phase, session.pollAfterMs);
      return;
    }
  }

  /** Has the kit send the session's link by `channel` to the person's own contact (a new session). */
  async #send(channel: SendLinkChannel): Promise<void> {
    this.#sentAt = this._now = Date.now();
    this._refused = '';
    await this.#create({ restart: true, sendTo: { channel } });
  }

  #base(): string {
    return this.endpoint.replace(/\/+$/, '');
  }

  /** A locale of LOCALES: the `locale` property, else the document's `lang`, else `en`. */
  #lang(): Locale {
    return localeOf(this.locale || globalThis.document?.documentElement.lang || '');
  }

  #t(): VerifyIdentityStrings {
    return { ...stringsOf(this.#lang()), ...this.strings };
  }

  /** Renders only once the locale's strings are loaded: never a flash of English, announced. */
  protected override async scheduleUpdate(): Promise<void> {
    const lang = this.#lang();
    if (!hasStrings(lang)) await loadStrings(lang);
    super.scheduleUpdate();
  }

  #apply({ phase, status, expiresAt }: StatusResponseBody): void {
    if (this._session) this._session = { ...this._session, expiresAt, status, phase };
    if (phase === this.#phase) return;
    this.#phase = phase;
    this._view = phase;
    const detail: PhaseChangeDetail = { phase, status };
    emit(this, 'phase-change', detail);
    if (isFinalPhase(phase)) emit(this, phase, detail);
  }

  async #fail({ code, status }: RequestError): Promise<void> {
    this.#follower.stop();
    const call = this.#call;
    const lang = this.#lang();
    if (!hasStrings(lang)) await loadStrings(lang);
    if (call !== this.#call) return;
    const t = this.#t();
    const message =
      status === 0
        ? t.errorNetwork
        : status === 429
          ? t.errorBusy
          : status === 404
            ? t.errorNoSession
            : status >= 500
              ? t.errorUnavailable
              : t.errorGeneric;
    this._error = { code, message };
    this._view = 'error';
    emit(this, 'verify-identity-error', this._error);
  }

  async #copyCode(): Promise<void> {
    try {
      await navigator.clipboard.writeText(this._session?.sessionCode ?? '');
      this._copy = 'copied';
    } catch {
      this._copy = 'copyFailed';
    }
  }

  /** Runs (or stops) the clock of the time left and of the resend cooldown. */
  #tick(on: boolean): void {
    if (on && !this.#clock) {
      this.#clock = setInterval(() => {
        this._now = Date.now();
        if (this.#timeLeft() <= 0) this.#follower.refresh();
      }, 1000);
    } else if (!on) {
      clearInterval(this.#clock);
      this.#clock = undefined;
    }
  }

  #timeLeft(): number {
    return Date.parse(this._session?.expiresAt ?? '') - this._now;
  }

  protected override willUpdate(changed: PropertyValues): void {
    // `autoStart` set after the element was attached (@lit/react, Vue and others set properties).
    if (changed.has('autoStart') && this.autoStart && this.isConnected && this._view === 'idle') this.start();
    // Focus inside a view that is being replaced moves into the new one (keyboard users): to its
    // first action, else to the title. Focus parked on the title moves on once there is an action.
    this.#focusInside = changed.has('_view') && !!this.shadowRoot?.activeElement;
    if (changed.has('_view')) {
      this._copy = this._refused = '';
      this._now = Date.now();
    }
  }

  protected override updated(): void {
    this.#tick(this._view === 'awaiting_user');
    const root = this.renderRoot;
    const title = root.querySelector<HTMLElement>("[part~='title']");
    const active = this.shadowRoot?.activeElement;
    if (this.#focusInside && (!active || active === title)) {
      // Never scroll the host page: the person may be reading elsewhere.
      const actions = [...root.querySelectorAll<HTMLElement>("[part~='button']")];
      (actions.find((el) => el.checkVisibility()) ?? title)?.focus({ preventScroll: true });
    }
  }

  protected override render(): TemplateResult {
    const t = this.#t();
    // The element's own direction: its layout mirrors in a right-to-left language.
    this.dir = t.dir;
    const [title, tone, body] = this.#content(t);
    return html`<div part="base" lang=${shownLocale(this.#lang())}>
      <div role="status" class="row">
        ${tone === 'busy' ? html`<span class="spinner"></span>` : nothing}
        <p part="title" class=${tone} tabindex="-1">${title}</p>
      </div>
      ${body}
    </div>`;
  }

  #content(t: VerifyIdentityStrings): [string, string, unknown] {
    const button = (label: string, onClick: () => void, part = '', secondary = false) =>
      html`<button part="button ${part}" class=${secondary ? 'secondary' : ''} @click=${onClick}>${label}</button>`;
    const text = (s: string) => html`<p part="text" class="muted">${s}</p>`;
    /** The view's one action: `start(restart)` (the kit resumes the bound session unless `restart`). */
    const action = (label: string, restart: boolean, part = '') =>
      html`<div>${button(label, () => this.start(restart), part)}</div>`;
    switch (this._view) {
      case 'idle':
        return [t.idleTitle, '', [text(t.idleText), action(t.start, false, 'start')]];
      case 'starting':
        return [t.startingTitle, 'busy', nothing];
      case 'awaiting_user':
        return [t.awaitingTitle, '', this.#awaiting(t)];
      case 'in_review':
        return [t.reviewTitle, 'busy', text(t.reviewText)];
      case 'in_manual_review':
        return [t.manualTitle, 'busy', text(t.manualText)];
      case 'approved':
        return [t.approvedTitle, 'ok', html`<slot name="done"></slot>`];
      case 'rejected':
        return [
          t.rejectedTitle,
          'bad',
          [text(t.rejectedText), action(t.retry, true, 'retry'), html`<slot name="rejected"></slot>`],
        ];
      case 'resubmission_required':
        return [
          t.resubmitTitle,
          '',
          [
            text(t.resubmitText),
            html`<div class="row">
              ${button(t.continue, () => {
                this._view = 'awaiting_user';
              })}
              ${button(t.restart, () => this.start(true), '', true)}
            </div>`,
          ],
        ];
      case 'expired':
        return [t.expiredTitle, 'bad', [text(t.expiredText), action(t.newSession, true)]];
      default:
        return [
          t.errorTitle,
          'bad',
          [text(this._error?.message ?? t.errorGeneric), action(t.retry, false, 'retry')],
        ];
    }
  }

  #awaiting(t: VerifyIdentityStrings): TemplateResult | typeof nothing {
    const session = this._session;
    if (!session) return nothing;
    return awaitingView({
      t,
      lang: shownLocale(this.#lang()),
      session,
      timeLeft: this.#timeLeft(),
      cooldown: this.#sentAt + RESEND_MS - this._now,
      copy: this._copy,
      onCopy: () => this.#copyCode(),
      refused: this._refused,
      onSend: (channel) => this.#send(channel),
    });
  }
}
