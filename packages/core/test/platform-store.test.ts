// Accounts need a shared store where the platform runs many instances (issue 38): createVerifyKit
// with accountOf and only the per-process store fails at once, naming `store` and the stores that
// run there, on Vercel, Workers, Lambda, Netlify and Deno Deploy in production; on one server, in
// development, for anonymous visitors, and with a shared store it is made as before.
import { afterEach, expect, test, vi } from 'vitest';
import { createVerifyKit as createExpressKit } from '../../express/src/index.js';
import { createMemoryBindingStore } from '../src/bindings/binding-store.js';
import { createVerifyKit, isVerifyKitError, type VerifyKitOptions } from '../src/index.js';

const options: VerifyKitOptions = {
  baseUrl: 'https://idv.example.com',
  apiKey: 'sk_test_platform_store_17',
  workflowId: 'default',
  basePath: '/identity',
  secret: 'platform-store-test-secret-0123456789abc',
  accountOf: () => 'account-1',
};

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

/** What createVerifyKit throws with these options here, or undefined when it makes the kit. */
async function thrown(make: () => { close(): Promise<void> }): Promise<unknown> {
  try {
    await make().close();
    return undefined;
  } catch (error) {
    return error;
  }
}

const platforms: [string, () => void, RegExp][] = [
  ['Vercel', () => vi.stubEnv('VERCEL', '1'), /on Vercel.*redisStore.*sqlStore/],
  ['AWS Lambda', () => vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'shop'), /on AWS Lambda/],
  ['Netlify', () => vi.stubEnv('NETLIFY', 'true'), /on Netlify/],
  ['Deno Deploy', () => vi.stubEnv('DENO_DEPLOYMENT_ID', 'x1'), /on Deno Deploy.*postgres/],
  [
    'Cloudflare Workers',
    () => vi.stubGlobal('navigator', { userAgent: 'Cloudflare-Workers' }),
    /on Cloudflare Workers.*d1Adapter.*node-redis does not run on Workers/,
  ],
];

for (const [platform, recognise, names] of platforms) {
  test(`${platform} in production: accounts with only the memory store fail with STORE_REQUIRED, naming store`, async () => {
    vi.stubEnv('NODE_ENV', 'production');
    recognise();
    const { baseUrl, apiKey, workflowId } = options;
    const engine = { baseUrl, apiKey, workflowId, accountOf: () => 'account-1' };
    for (const make of [() => createVerifyKit(options), () => createExpressKit(engine)]) {
      const error = await thrown(make);
      expect(isVerifyKitError(error, 'STORE_REQUIRED'), String(error)).toBe(true);
      expect((error as Error).message).toMatch(/Pass store: /);
      expect((error as Error).message).toMatch(names);
    }
  });
}

test('made as before: one server in production, Vercel in development, anonymous visitors, a shared store', async () => {
  vi.stubEnv('NODE_ENV', 'production');
  expect(await thrown(() => createVerifyKit(options))).toBeUndefined();
  vi.stubEnv('VERCEL', '1');
  const { accountOf: _anonymous, ...visitors } = options;
  expect(await thrown(() => createVerifyKit(visitors))).toBeUndefined();
  // Any store the kit did not make for one process counts as shared (Redis, SQL, your own).
  const shared = { ...createMemoryBindingStore() };
  expect(await thrown(() => createVerifyKit({ ...options, bindingStore: shared }))).toBeUndefined();
  vi.stubEnv('NODE_ENV', 'development');
  expect(await thrown(() => createVerifyKit(options))).toBeUndefined();
});
