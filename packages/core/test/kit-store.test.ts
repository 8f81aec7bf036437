// `createVerifyKit({ store })` with a store that holds only some parts (the SQL store: records and
// webhook ids, no status bus, no counters): what it wires, the startup warning naming exactly what
// is still per process and where it can go, the parts given on their own completing it, and a
// store that cannot be one refused naming why. No database is reached: the driver is never called.
import { describe, expect, it } from 'vitest';
import { createMemoryBindingStore } from '../src/bindings/binding-store.js';
import { createVerifyKit, type VerifyKitOptions } from '../src/index.js';
import { type SqlDriver, sqlStore } from '../src/sql.js';
import { createMemoryStatusBus } from '../src/status/status-bus.js';

const VALID = {
  baseUrl: 'https://idv.example.com',
  apiKey: 'sk_test_kit_store_51c2',
  workflowId: 'default',
  basePath: '/identity',
  secret: 'kit-store-test-secret-0123456789abcdefghij',
};

/** A driver no test lets the kit call (construction and warnings only). */
const driver: SqlDriver = {
  dialect: 'postgres',
  query: () => Promise.reject(new Error('not reached')),
  transaction: () => Promise.reject(new Error('not reached')),
};

/** The warnings createVerifyKit logs at startup with these options. */
async function warningsWith(options: Partial<VerifyKitOptions>): Promise<string[]> {
  const warnings: string[] = [];
  const kit = createVerifyKit({
    ...VALID,
    ...options,
    logger: { warn: (message) => warnings.push(message) },
  });
  await kit.close();
  return warnings.filter((message) => message.includes('shared between instances'));
}

const redisLike = { isReady: true, eval: async () => 0, multi: () => ({}), del: async () => 0 };

describe('a store of some parts (sqlStore)', () => {
  it('names, once at startup, exactly the parts still per process and where they go', async () => {
    const [warning, ...more] = await warningsWith({ store: sqlStore(driver) });
    expect(more).toEqual([]);
    expect(warning).toContain(
      "some of the kit's state is shared between instances and some is not: statusBus, sessionLimit.redis (creation limits), the read budget (counted in sessionLimit.redis): each instance keeps its own",
    );
    expect(warning).toContain(
      'the store does not hold the status bus (statusBus: createRedisStatusBus(...)) nor the counters (sessionLimit: { redis }, sendLink: { redis }: a node-redis client)',
    );
    expect(warning).not.toMatch(/bindingStore|replayStore/);
  });

  it('says nothing once the parts it lacks are given on their own', async () => {
    const complete = {
      store: sqlStore(driver),
      statusBus: createMemoryStatusBus(),
      sessionLimit: { redis: redisLike },
    };
    expect(await warningsWith(complete as never)).toEqual([]);
  });

  it('names only the counters when the status bus is given, and nothing of creation limits left to the app', async () => {
    const [warning] = await warningsWith({
      store: sqlStore(driver),
      statusBus: createMemoryStatusBus(),
      sessionLimit: false,
    });
    expect(warning).toMatch(/: the read budget \(counted in sessionLimit\.redis\): /);
    expect(warning).toMatch(/the store does not hold the counters/);
    expect(warning).not.toMatch(/status bus/);
  });

  it('kit.close() closes it, and it closes nothing of the driver (the client is the integrator’s)', async () => {
    let closed = 0;
    const store = sqlStore(driver);
    const counted = { ...store, close: async () => void closed++ };
    const kit = createVerifyKit({ ...VALID, store: counted, logger: {} });
    await kit.close();
    await kit.close();
    expect(closed).toBe(1);
    await store.close();
  });
});

describe('what store refuses', () => {
  const refused = (store: unknown) => {
    try {
      createVerifyKit({ ...VALID, store: store as never });
    } catch (error) {
      return error as { code: string; message: string };
    }
    throw new Error('accepted');
  };

  it('a store whose bindings are one process’s memory', () => {
    expect(refused({ bindings: createMemoryBindingStore(), close: async () => {} })).toMatchObject({
      code: 'INVALID_OPTIONS',
      message: expect.stringMatching(
        /store must be redisStore\(\.\.\.\) from @verify-kit\/express\/redis \(or @verify-kit\/core\/redis\), sqlStore\(\.\.\.\) from @verify-kit\/core\/sql, or a store of your own: its bindings are one process's memory/,
      ),
    });
  });

  it('a store missing a record’s method, or with a part of the wrong shape, naming it', () => {
    const { bindings } = sqlStore(driver);
    const noPut = {
      ...bindings,
      decisions: { get: bindings.decisions.get, delete: bindings.decisions.delete },
    };
    expect(refused({ bindings: noPut, close: async () => {} }).message).toMatch(
      /bindings\.decisions\.put missing/,
    );
    expect(refused({ bindings, replayStore: {}, close: async () => {} }).message).toMatch(
      /its replayStore must have claim/,
    );
    expect(refused({ bindings, statusBus: { publish() {} }, close: async () => {} }).message).toMatch(
      /its statusBus must have publish/,
    );
    expect(refused({ bindings, counts: { redis: {} }, close: async () => {} }).message).toMatch(
      /its counts must be/,
    );
    expect(refused(sqlStore).message).toMatch(/store must be redisStore/);
  });
});
