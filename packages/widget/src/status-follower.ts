import { DEFAULT_MAX_WAIT_SECONDS, isFinalPhase, type StatusResponseBody } from '@verify-kit/protocol';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { RequestError, requestJson } from './request.js';
import { backoff, jitter, MAX_STATUS_FAILURES, retryDelay } from './retry-policy.js';

// What the follower is doing (plain numbers: the minifier inlines them).
/** Not following (never started, stopped, or failed). */
const IDLE = 0;
/** A timer runs before the next read. */
const WAITING = 1;
/** One read is in flight. */
const PENDING = 2;
/** The page is hidden, in the back/forward cache, or the host is disconnected. */
const PAUSED = 3;
/** A final phase was reached. */
const DONE = 4;

export interface StatusFollowerOptions {
  /** `{endpoint}/status`. */
  url: () => string;
  /** Base interval of plain polling and of the error backoff, in ms. */
  interval: () => number;
  /** Every status read (the phase may be unchanged). */
  onStatus: (body: StatusResponseBody) => void;
  /** The follower gave up (a 4xx, or too many failures in a row); it is idle afterwards. */
  onError: (error: RequestError) => void;
}

/** An unchanged answer sooner than this means the server does not long-poll: fall back to polling. */
const QUICK_MS = 1000;

type Outcome = { body: StatusResponseBody } | { error: RequestError };

/**
 * Follows `GET {endpoint}/status` for its host, modelled on Lit's Task: one AbortController per run,
 * results of a superseded run dropped, never more than one request in flight, callbacks called
 * outside the request's try. Long-polls with `wait`/`since`; when the kit answers with `pollAfterMs`
 * (it holds no long-polls) reads after that many ms; falls back to plain polling with backoff and
 * jitter when the server answers at once; backs off on errors and honours Retry-After on 429; pauses
 * while the page is hidden or in the back/forward cache and re-reads at once when it is shown again;
 * is DONE on a final phase.
 */
export class StatusFollower implements ReactiveController {
  /** The last phase known, sent as `since`. */
  phase = '';
  #status = IDLE;
  #abort?: AbortController;
  #timer?: ReturnType<typeof setTimeout>;
  #callId = 0;
  #failures = 0;
  // Another tab's request may have just moved the session to a new id (the kit regenerates it at
  // approval): a request that left with the old cookie finds no verification. Re-read once.
  #notFoundRetried = false;
  #backoff = 0;
  #quick = 0;
  #pollAfterMs?: number;
  #connected = false;

  readonly #options: StatusFollowerOptions;

  constructor(host: ReactiveControllerHost, options: StatusFollowerOptions) {
    this.#options = options;
    host.addController(this);
  }

  /** Starts following from `phase` (the phase the page shows now); `pollAfterMs` as the kit said. */
  follow(phase: string, pollAfterMs?: number): void {
    this.#cancel();
    this.phase = phase;
    this.#pollAfterMs = pollAfterMs;
    this.#failures = this.#backoff = this.#quick = 0;
    if (isFinalPhase(phase)) this.#status = DONE;
    else if (!this.#connected || document.hidden) this.#status = PAUSED;
    else this.#read();
  }

  /** Stops following; an answer still on its way is dropped. */
  stop(): void {
    this.#cancel();
    this.#status = IDLE;
  }

  /** Reads at once unless a read is in flight already (it answers as soon as the phase changes). */
  refresh(): void {
    if (this.#status === WAITING || this.#status === PAUSED) {
      this.#cancel();
      this.#read();
    }
  }

  hostConnected(): void {
    this.#connected = true;
    document.addEventListener('visibilitychange', this.#onVisibility);
    addEventListener('pagehide', this.#pause);
    addEventListener('pageshow', this.#onPageShow);
    if (!document.hidden) this.refresh();
  }

  hostDisconnected(): void {
    this.#connected = false;
    document.removeEventListener('visibilitychange', this.#onVisibility);
    removeEventListener('pagehide', this.#pause);
    removeEventListener('pageshow', this.#onPageShow);
    this.#pause();
  }

  #onVisibility = () => (document.hidden ? this.#pause() : this.refresh());

  #onPageShow = (event: PageTransitionEvent) => {
    if (event.persisted) this.refresh();
  };

  #pause = () => {
    if (this.#status === WAITING || this.#status === PENDING) {
      this.#cancel();
      this.#status = PAUSED;
    }
  };

  #cancel(): void {
    this.#callId++;
    clearTimeout(this.#timer);
    this.#abort?.abort();
    this.#abort = undefined;
  }

  #schedule(ms: number): void {
    this.#status = WAITING;
    this.#timer = setTimeout(() => this.#read(), ms);
  }

  #url(): string {
    const since = `since=${encodeURIComponent(this.phase)}`;
    return `${this.#options.url()}?${this.#pollAfterMs === undefined ? `wait=${DEFAULT_MAX_WAIT_SECONDS}&` : ''}${since}`;
  }

  async #read(): Promise<void> {
    const id = ++this.#callId;
    const abort = new AbortController();
    this.#abort = abort;
    this.#status = PENDING;
    const started = Date.now();
    let outcome: Outcome;
    try {
      const init = { signal: abort.signal, headers: { accept: 'application/json' } };
      outcome = { body: await requestJson<StatusResponseBody>(this.#url(), init) };
    } catch (error) {
      outcome = { error: error instanceof RequestError ? error : new RequestError('UNEXPECTED', 0) };
    }
    if (id !== this.#callId) return;
    if ('body' in outcome) this.#answered(id, outcome.body, Date.now() - started);
    else this.#failed(outcome.error);
  }

  #answered(id: number, body: StatusResponseBody, tookMs: number): void {
    const changed = body.phase !== this.phase;
    this.phase = body.phase;
    this.#pollAfterMs = body.pollAfterMs;
    this.#failures = this.#backoff = 0;
    this.#notFoundRetried = false;
    const final = isFinalPhase(body.phase);
    this.#status = final ? DONE : WAITING;
    this.#options.onStatus(body);
    // onStatus may have stopped or restarted the follower.
    if (id !== this.#callId || final) return;
    if (changed) this.#quick = 0;
    const base = this.#pollAfterMs ?? this.#options.interval();
    if (this.#pollAfterMs === undefined && (changed || tookMs >= QUICK_MS)) {
      this.#quick = 0;
      this.#read();
    } else {
      this.#schedule(jitter(Math.min(base * 1.5 ** this.#quick++, base * 8)));
    }
  }

  #failed(failure: RequestError): void {
    const { status } = failure;
    const wait = backoff(this.#options.interval(), this.#backoff++);
    if (status === 429) {
      this.#schedule(retryDelay(failure, wait));
    } else if (failure.code === 'NO_VERIFICATION_SESSION' && !this.#notFoundRetried) {
      this.#notFoundRetried = true;
      this.#read();
    } else if ((status < 300 || status >= 500) && ++this.#failures < MAX_STATUS_FAILURES) {
      this.#schedule(wait);
    } else {
      this.#status = IDLE;
      this.#options.onError(failure);
    }
  }
}
