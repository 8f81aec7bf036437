// The published store contract (@verify-kit/core/testing) on the memory store: the rules every
// store of the kit passes hold for the default one too (one process: its bindings and records, and
// the kit's own memory of webhook ids).
import { createMemoryBindingStore } from '../src/bindings/binding-store.js';
import { runStoreContract } from '../src/testing.js';
import { MemoryReplayStore } from '../src/webhooks/replay-store.js';

runStoreContract(() => createMemoryBindingStore(), {
  name: 'the memory store',
  replayStore: new MemoryReplayStore(Date.now),
});
