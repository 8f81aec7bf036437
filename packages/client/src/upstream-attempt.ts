// What `onAttempt` is told of each HTTP exchange with the service (a retry is an exchange of its own):
// for metrics and traces (OpenTelemetry's HTTP client conventions), never the key, a body or an id.

export type UpstreamOperation = 'createSession' | 'getIdentification' | 'verify';

export interface UpstreamAttempt {
  /** The client method that sent it. */
  operation: UpstreamOperation;
  method: 'GET' | 'POST';
  /** The path with its ids as placeholders, e.g. `/api/v1/identifications/{identificationId}` (after baseUrl's own path). */
  urlTemplate: string;
  /** baseUrl's host name and port (443 or 80 when it names none). */
  serverAddress: string;
  serverPort: number;
  /** The HTTP status answered; absent when no answer came (a timeout, a connection refused). */
  status?: number;
  /**
   * Why the exchange failed, as the client's error code: `UPSTREAM_TIMEOUT`, `UPSTREAM_UNAVAILABLE`
   * (no connection, a 5xx), `UPSTREAM_NOT_FOUND`, `UPSTREAM_RATE_LIMITED`, `UPSTREAM_BAD_RESPONSE`
   * (a 2xx whose body is not the v1 shape)…; absent when it succeeded.
   */
  error?: string;
  /** When it started, epoch ms. */
  startTime: number;
  durationMs: number;
  /** 0 for the first attempt of a call, 1 for its first retry, … */
  resendCount: number;
}

/** Told once per attempt, synchronously; what it throws is ignored. */
export type OnAttempt = (attempt: UpstreamAttempt) => void;

/** What an attempt's record needs of its call, known before it is sent. */
export interface AttemptLabel {
  operation: UpstreamOperation;
  urlTemplate: string;
}

/**
 * Tells `onAttempt` of each attempt; `start()` before it, the returned function with its outcome
 * after. The server's address is worked out once, from baseUrl.
 */
export function attemptRecorder(baseUrl: string, onAttempt: OnAttempt) {
  const url = new URL(baseUrl);
  const serverAddress = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const serverPort = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return (label: AttemptLabel, method: 'GET' | 'POST', resendCount: number) => {
    const startTime = Date.now();
    const started = performance.now();
    return (status: number | undefined, error: string | undefined): void => {
      try {
        onAttempt({
          operation: label.operation,
          method,
          urlTemplate: label.urlTemplate,
          serverAddress,
          serverPort,
          ...(status === undefined ? {} : { status }),
          ...(error === undefined ? {} : { error }),
          startTime,
          durationMs: performance.now() - started,
          resendCount,
        });
      } catch {
        // An observer's failure is its own.
      }
    };
  };
}
