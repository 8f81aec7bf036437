import type { StatusResponseBody } from '@verify-kit/protocol';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { RequestError, requestJson } from './request.js';

/** What the follower is doing. */
export const FollowerStatus = {
  /** Not following (never started, stopped, or failed). */
  IDLE: 0,
  /** A timer runs before the next read. */
  WAITING: 1,
  /** One read is in flight. */
  PENDING: 2,
  /** The page is hidden, in the back/forward cache, or the host is disconnected. */
  PAUSED: 3,
  /** A final phase was reached. */
  DONE: 4,
} as const;
export type FollowerStatus = (typeof FollowerStatus)[keyof typeof FollowerStatus];

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

/** Seconds the kit may hold a long-poll (`wait`), below its MAX_WAIT_SECONDS. */
export const LONG_POLL_SECONDS = 25;
/** An unchanged answer sooner than this means the server does not long-poll: fall back to polling. */
const QUICK_MS = 1000;
/** Failures in a row (network, 5xx, bad body) before giving up; 429s do not count. */
const MAX_FAILURES = 5;
/** Phases after which nothing changes without a new session (FINAL_PHASES of the protocol). */
export const FINAL: readonly string[] = ['approved', 'rejected', 'expired'];

const jitter = (ms: number) => ms * (0.75 + Math.random() / 2);

/**
 * Follows `GET {endpoint}/status` for its host, modelled on Lit's Task: one AbortController per run,
 * results of a superseded run dropped, never more than one request in flight. Long-polls with
 * `wait`/`since`; falls back to plain polling with backoff and jitter when the server answers at once;
 * backs off on errors and honours Retry-After on 429; pauses while the page is hidden or in the
 * back/forward cache and re-reads at once when it is shown again; stops on a final phase.
 */
export class StatusFollower implements ReactiveController {
  status: FollowerStatus = FollowerStatus.IDLE;
  /** The last phase known, sent as `since`. */
  phase = '';
  #abort?: AbortController;
  #timer?: ReturnType<typeof setTimeout>;
  #callId = 0;
  #failures = 0;
  // Another tab's request may have just moved the session to a new id (the kit regenerates it at
  // approval): a request that left with the old cookie finds no verification. Re-read once.
  #notFoundRetried = false;
  #backoff = 0;
  #quick = 0;
  #connected = false;

  readonly #options: StatusFollowerOptions;

  constructor(host: ReactiveControllerHost, options: StatusFollowerOptions) {
    this.#options = options;
    host.addController(this);
  }

  /** Starts following from `phase` (the phase the page shows now). */
  follow(phase: string): void {
    this.#cancel();
    this.phase = phase;
    this.#failures = this.#backoff = this.#quick = 0;
    if (FINAL.includes(phase)) this.status = FollowerStatus.DONE;
    else if (!this.#connected || document.hidden) this.status = FollowerStatus.PAUSED;
    else this.#read();
  }

  /** Stops following; an answer still on its way is dropped. */
  stop(): void {
    this.#cancel();
    this.status = FollowerStatus.IDLE;
  }

  /** Reads at once unless a read is in flight already (it answers as soon as the phase changes). */
  refresh(): void {
    if (this.status === FollowerStatus.WAITING || this.status === FollowerStatus.PAUSED) {
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
    if (this.status === FollowerStatus.WAITING || this.status === FollowerStatus.PENDING) {
      this.#cancel();
      this.status = FollowerStatus.PAUSED;
    }
  };

  #cancel(): void {
    this.#callId++;
    clearTimeout(this.#timer);
    this.#abort?.abort();
    this.#abort = undefined;
  }

  #schedule(ms: number): void {
    this.status = FollowerStatus.WAITING;
    this.#timer = setTimeout(() => this.#read(), ms);
  }

  async #read(): Promise<void> {
    const id = ++this.#callId;
    const abort = new AbortController();
    this.#abort = abort;
    this.status = FollowerStatus.PENDING;
    const started = Date.now();
    const interval = this.#options.interval();
    try {
      const body = await requestJson<StatusResponseBody>(
        `${this.#options.url()}?wait=${LONG_POLL_SECONDS}&since=${encodeURIComponent(this.phase)}`,
        { signal: abort.signal, headers: { accept: 'application/json' } },
      );
      if (id !== this.#callId) return;
      const changed = body.phase !== this.phase;
      this.phase = body.phase;
      this.#failures = this.#backoff = 0;
      this.#notFoundRetried = false;
      this.status = FollowerStatus.DONE;
      this.#options.onStatus(body);
      // onStatus may have stopped or restarted the follower.
      if (id !== this.#callId || FINAL.includes(body.phase)) return;
      if (changed || Date.now() - started >= QUICK_MS) {
        this.#quick = 0;
        this.#read();
      } else {
        this.#schedule(jitter(Math.min(interval * 1.5 ** this.#quick++, interval * 8)));
      }
    } catch (error) {
      if (id !== this.#callId) return;
      const failure = error instanceof RequestError ? error : new RequestError('UNEXPECTED', 0);
      const { status } = failure;
      const backoff = jitter(Math.min(interval * 2 ** this.#backoff++, 60_000));
      if (status === 429) {
        this.#schedule(failure.retryAfterMs ?? backoff);
      } else if (failure.code === 'NO_VERIFICATION_SESSION' && !this.#notFoundRetried) {
        this.#notFoundRetried = true;
        this.#read();
      } else if ((status < 300 || status >= 500) && ++this.#failures < MAX_FAILURES) {
        this.#schedule(backoff);
      } else {
        this.status = FollowerStatus.IDLE;
        this.#options.onError(failure);
      }
    }
  }
}
