/**
 * How a verified webhook received by one server instance reaches the long-polls waiting on every
 * instance. The default lives in memory (one process); a shared bus (e.g. Redis pub/sub) makes push
 * instant across instances. Messages are hints: receivers always re-read the upstream.
 */
export interface StatusHint {
  /** The webhook event type, e.g. `identification.submitted`. */
  type?: string;
  /** true when the event proves the person submitted a document. */
  documentSubmitted?: boolean;
  /** The identification's status the event gives, if any: one not APPROVED refuses at once; never a grant. */
  status?: string;
  /**
   * When the event happened (epoch ms, the payload's `timestamp`, never later than its arrival;
   * absent when the payload gives none): a review step delivered late never displaces a decision the
   * kit read after it, and only an approval known to be newer than a refusal ends its hold.
   */
  occurredAt?: number;
}

export type StatusListener = (identificationId: string, hint: StatusHint) => void;

export interface StatusBus {
  /**
   * Announce that the identification may have changed. Called once per accepted webhook, after the
   * 204 is sent; a rejected promise is logged and otherwise ignored (the long-polls still re-read
   * every pollIntervalMs).
   */
  publish(identificationId: string, hint: StatusHint): void | Promise<void>;
  /**
   * Receive every announcement, including this instance's own. Returns the function that stops it.
   * The kit subscribes once at creation and unsubscribes in kit.close().
   */
  subscribe(listener: StatusListener): () => void;
}

/** One process: publish calls each listener synchronously; a throwing listener does not stop the others. */
export function createMemoryStatusBus(): StatusBus {
  const listeners = new Set<StatusListener>();
  return {
    publish(identificationId, hint) {
      for (const listener of [...listeners]) {
        try {
          listener(identificationId, hint);
        } catch {
          // A listener's failure is its own; the bus keeps delivering.
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
