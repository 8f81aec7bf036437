import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordStore } from '../bindings/binding-store.js';
import { type Retention, resolveRetention } from '../bindings/retention.js';
import type { ReplayStore } from '../webhooks/replay-store.js';
import { describeConcurrencyRules } from './concurrency-rules.js';
import { describeDecisionRules } from './decision-rules.js';
import type { Subject } from './fixtures.js';
import { describeBindingRules, describeStatusRules } from './record-rules.js';
import { describeReplayRules } from './replay-rules.js';

/**
 * What the contract runs on: a `RecordStore` (e.g. `createMemoryBindingStore()`, your own), or a
 * store for `createVerifyKit({ store })` (`sqlStore(...)`, `redisStore(...)`): its `bindings`, and
 * its `replayStore` when it has one. `close()`, when there is one, is called after the rules.
 */
export type ContractStore =
  | RecordStore
  | {
      bindings: RecordStore;
      replayStore?: ReplayStore | undefined;
      close?(): unknown;
    };

export interface StoreContractOptions {
  /** The suite's name in the report. Default `the verify-kit store contract`. */
  name?: string;
  /** The retention the store was made with (its expiry rules are checked against it). Default the kit's. */
  retention?: Retention;
  /** A replay store to run the webhook-id rules on, when the store itself has none. */
  replayStore?: ReplayStore;
  /** Calls at once in the concurrency rules. Default 50. */
  concurrency?: number;
}

function subjectOf(store: ContractStore): Pick<Subject, 'records' | 'replay'> {
  const parts = store as Record<string, unknown>;
  // A RecordStore has its statusRecords beside its bindings; a kit store keeps them in its bindings.
  if (typeof parts.statusRecords === 'object' && parts.statusRecords !== null) {
    return { records: store as RecordStore, replay: undefined };
  }
  const kitStore = store as { bindings: RecordStore; replayStore?: ReplayStore };
  return { records: kitStore.bindings, replay: kitStore.replayStore };
}

/**
 * Every rule the engine expects of a store, as a Vitest suite (`@verify-kit/core/testing`; Vitest
 * is an optional peer dependency): bindings and records kept whole under any key the kit uses,
 * compare-and-set from none or a status, newer-wins decisions (a tie stores) and the retired
 * marker, expiry by retention and by ttl, webhook ids claimed once — and, with 50 calls at once,
 * exactly one winner of each compare-and-set and claim and the newest decision standing. Call it
 * in a test file with a function that makes the store, against the database you run:
 *
 *   runStoreContract(() => sqlStore(pgDriver(pool)));
 */
export function runStoreContract(
  makeStore: () => ContractStore | Promise<ContractStore>,
  options: StoreContractOptions = {},
): void {
  const subject = {
    retention: resolveRetention('runStoreContract', options.retention),
    concurrency: options.concurrency ?? 50,
  } as Subject;
  let store: ContractStore | undefined;
  describe(options.name ?? 'the verify-kit store contract', () => {
    beforeAll(async () => {
      store = await makeStore();
      Object.assign(subject, subjectOf(store));
      subject.replay ??= options.replayStore;
    });
    afterAll(async () => {
      const closing = store as { close?(): unknown } | undefined;
      if (typeof closing?.close === 'function') await closing.close();
    });

    it('answers health() true', async (context) => {
      if (subject.records.health === undefined) return context.skip('this store has no health()');
      expect(await subject.records.health()).toBe(true);
    });
    describeBindingRules(subject);
    describeStatusRules(subject);
    describeDecisionRules(subject);
    describeReplayRules(subject);
    describeConcurrencyRules(subject);
  });
}
