import { generateWebhookSecret, isVerifyKitError } from '@verify-kit/client';
import { describe, expect, it } from 'vitest';
import {
  createMemoryBindingStore,
  createMemoryStatusBus,
  createVerifyKit,
  type KitStore,
  type VerifyKitOptions,
} from '../src/index.js';

const KEY = 'sk_test_options_a1b2c3d4e5';
const VALID = { baseUrl: 'https://idv.example.com', apiKey: KEY, workflowId: 'default' };

function creationError(options: unknown): { code: string; message: string; details: unknown[] | undefined } {
  try {
    createVerifyKit(options as VerifyKitOptions);
  } catch (error) {
    if (!isVerifyKitError(error)) throw error;
    return { code: error.code, message: error.message, details: error.details };
  }
  throw new Error('createVerifyKit accepted the options');
}

/** Options patched into a valid set, and what the error must say. */
const REFUSED: [string, Record<string, unknown>, RegExp][] = [
  ['a missing baseUrl', { baseUrl: undefined }, /baseUrl is required: the service’s address/],
  ['a baseUrl that is not http(s)', { baseUrl: 'ftp://idv.example.com' }, /baseUrl must be an http\(s\) URL/],
  [
    'a baseUrl with /api/v1',
    { baseUrl: 'https://idv.example.com/api/v1' },
    /baseUrl must not end with \/api\/v1/,
  ],
  ['a missing apiKey', { apiKey: undefined }, /apiKey is required: .*process\.env\.IDV_API_KEY/],
  ['an empty apiKey', { apiKey: '  ' }, /apiKey must be a non-empty single-line string/],
  ['an empty workflowId', { workflowId: '' }, /workflowId must not be empty/],
  [
    'sessionOptions that is not a function',
    { sessionOptions: { email: 'x' } },
    /sessionOptions must be a function/,
  ],
  [
    'a webhookSecret without whsec_',
    { webhookSecret: 'secret123' },
    /webhookSecret must look like whsec_<base64/,
  ],
  ['a too short webhookSecret', { webhookSecret: 'whsec_YWJj' }, /webhookSecret must .*whsec_/],
  ['an empty rotation list', { webhookSecret: [] }, /webhookSecret must/],
  [
    'webhookSecret with webhookVerifier',
    { webhookSecret: generateWebhookSecret(), webhookVerifier: () => ({ id: 'x' }) },
    /webhookVerifier cannot be combined with webhookSecret/,
  ],
  ['a maxWaitSeconds above 30', { maxWaitSeconds: 60 }, /maxWaitSeconds must be at most 30 seconds/],
  ['a fractional timeoutMs', { timeoutMs: 1.5 }, /timeoutMs must be an integer/],
  ['a negative retries', { retries: -1 }, /retries must be 0 or more/],
  [
    'a statusBus without subscribe',
    { statusBus: { publish() {} } },
    /statusBus must be an object with publish/,
  ],
  [
    'a replayStore without claim',
    { replayStore: { seen() {} } },
    /replayStore must be an object with claim\(id, ttlSeconds\)/,
  ],
  ['a logger with a non-function', { logger: { warn: 'yes' } }, /logger must be an object/],
  ['an unknown freshness', { freshness: 'always' }, /freshness must be "visit" .* or "every-request"/],
  ['a visitIdleMs under a second', { visitIdleMs: 10 }, /visitIdleMs must be at least 1000 milliseconds/],
  ['a negative maxAgeMs', { maxAgeMs: -1 }, /maxAgeMs must be 0 or more/],
  [
    'a staleIfErrorMs below maxAgeMs',
    { maxAgeMs: 600_000, staleIfErrorMs: 60_000 },
    /staleIfErrorMs must be at least maxAgeMs \(600000\)/,
  ],
  [
    'a flat (deprecated) binding store without the decision methods',
    {
      bindingStore: {
        get() {},
        set() {},
        delete() {},
        getStatus() {},
        compareAndSetStatus() {},
        deleteStatus() {},
      },
    },
    /bindingStore must implement RecordStore \{ bindings: \{ get, set, delete \}, statusRecords: .*; read as the deprecated flat BindingStore it lacks getDecision, putDecision, deleteDecision$/,
  ],
  [
    'a record store without its status records’ compareAndSet, nor decisions',
    {
      bindingStore: {
        bindings: { get() {}, set() {}, delete() {} },
        statusRecords: { get() {}, delete() {} },
      },
    },
    /bindingStore must implement RecordStore .*: statusRecords\.compareAndSet, decisions\.get, decisions\.put, decisions\.delete missing/,
  ],
  [
    'a binding store that is not an object',
    { bindingStore: 'redis://' },
    /bindingStore must be a RecordStore \{ bindings/,
  ],
  [
    'a store that is not redisStore(...)',
    { store: { bindings: createMemoryBindingStore(), close: async () => undefined } },
    /store must be redisStore\(\.\.\.\) from @verify-kit\/express\/redis/,
  ],
  [
    'a misspelt option',
    { webhookSecrets: 'x' },
    /webhookSecrets is not an option of createVerifyKit \(known: baseUrl/,
  ],
];

describe('createVerifyKit accepting options', () => {
  it('accepts the README example and every documented option', async () => {
    const kit = createVerifyKit({
      ...VALID,
      sessionOptions: async () => ({ email: 'a@example.com', locale: 'tr' }),
      webhookSecret: [generateWebhookSecret(), generateWebhookSecret()],
      timeoutMs: 5000,
      retries: 1,
      pollIntervalMs: 1000,
      maxWaitSeconds: 10,
      logger: console,
      now: Date.now,
    });
    expect(typeof kit.router).toBe('function');
    await kit.close();
  });

  it('freshness and its bounds, kit-wide and per gate', async () => {
    const kit = createVerifyKit({
      ...VALID,
      freshness: 'visit',
      visitIdleMs: 15 * 60_000,
      maxAgeMs: 60_000,
      staleIfErrorMs: 60_000,
    });
    expect(typeof kit.requireApproved({ freshness: 'every-request', maxAgeMs: 5_000 })).toBe('function');
    expect(typeof kit.requireApproved({ maxAgeMs: 30_000 })).toBe('function');
    // With freshness 'visit', a gate's maxAgeMs bounds the stored decision: not past staleIfErrorMs.
    expect(() => kit.requireApproved({ maxAgeMs: 120_000 })).toThrow(
      /requireApproved: invalid options: maxAgeMs must be at most the kit's staleIfErrorMs \(60000\)/,
    );
    expect(() => kit.requireApproved({ freshness: 'sometimes' } as never)).toThrow(/freshness must be/);
    await kit.close();
  });
});

describe('createVerifyKit refusing options', () => {
  it.each(REFUSED)('refuses %s with INVALID_OPTIONS naming it and the fix', (_name, patch, message) => {
    const error = creationError({ ...VALID, ...patch });
    expect(error.code).toBe('INVALID_OPTIONS');
    expect(error.message).toMatch(/^createVerifyKit: invalid options: /);
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain(KEY);
    expect(JSON.stringify(error.details)).not.toContain(KEY);
  });

  it('never echoes a secret given in the wrong place', () => {
    const secret = 'whsec_not-base64!!but-secret';
    const error = creationError({ ...VALID, webhookSecret: secret, apiKey: 42 });
    expect(error.message).not.toContain(secret);
    expect(error.message).toMatch(/apiKey/);
  });

  it('refuses a non-object', () => {
    expect(creationError(undefined).message).toMatch(/options must be an object/);
  });
});

describe('state shared between instances, or not', () => {
  /** The warnings createVerifyKit logs with these options. */
  async function warningsWith(patch: Partial<VerifyKitOptions>): Promise<string[]> {
    const warnings: string[] = [];
    const kit = createVerifyKit({
      ...VALID,
      ...patch,
      logger: { warn: (message) => warnings.push(message) },
    });
    await kit.close();
    return warnings.filter((message) => message.includes('shared between instances'));
  }

  it('a kit with some shared parts names, once at startup, the ones each instance keeps for itself', async () => {
    // Your database as the binding store, nothing else shared: limits and hints stay per instance.
    const bindingStore = { ...createMemoryBindingStore() };
    const [warning, ...more] = await warningsWith({ bindingStore });
    expect(more).toEqual([]);
    expect(warning).toMatch(
      /statusBus, replayStore, sessionLimit\.redis \(creation limits\), the read budget \(counted in sessionLimit\.redis\)/,
    );
    expect(warning).not.toMatch(/bindingStore/);
  });

  it('says nothing when everything is per process (one instance) or everything is shared', async () => {
    expect(await warningsWith({})).toEqual([]);
    // Creation limits left to the app are neither shared nor per process.
    expect(await warningsWith({ sessionLimit: false })).toEqual([]);
    const bus = { publish: () => undefined, subscribe: () => () => undefined };
    const redis = { isReady: true, eval: async () => 0, multi: () => ({}), del: async () => 0 };
    const everything = {
      bindingStore: { ...createMemoryBindingStore() },
      statusBus: bus,
      replayStore: { claim: () => true },
      sessionLimit: { redis },
    };
    expect(await warningsWith(everything)).toEqual([]);
  });
});

describe('store and the parts given on their own', () => {
  /** A store whose every part says it is down, and what the kit closed of it. */
  function downStore(): KitStore & { closed: number } {
    const down = { health: () => false };
    const store = {
      closed: 0,
      bindings: { ...createMemoryBindingStore(), ...down },
      statusBus: { ...createMemoryStatusBus(), ...down },
      replayStore: { claim: () => true },
      counts: {
        redis: { isReady: false, eval: async () => undefined, multi: () => undefined, del: async () => 0 },
        limitPrefix: 'limit:',
        sendPrefix: 'send:',
      },
      async close() {
        store.closed++;
      },
    };
    return store;
  }

  it('bindingStore and statusBus given explicitly take precedence over the store’s', async () => {
    const store = downStore();
    const kit = createVerifyKit({
      ...VALID,
      store,
      bindingStore: createMemoryBindingStore(),
      statusBus: createMemoryStatusBus(),
      sessionLimit: false,
    });
    expect(await kit.health()).toMatchObject({ ok: true, bus: 'not-shared', store: 'ok' });
    await kit.close();
    await kit.close();
    expect(store.closed).toBe(1);
  });

  it('the store’s parts otherwise, reported by health()', async () => {
    const kit = createVerifyKit({ ...VALID, store: downStore(), sessionLimit: false });
    expect(await kit.health()).toMatchObject({ ok: false, bus: 'down', store: 'down' });
    await kit.close();
  });
});
