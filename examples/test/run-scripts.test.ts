import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '@verify-kit/sandbox';
import { afterEach, expect, test, vi } from 'vitest';

// The README examples that are whole scripts: importing one runs it; a README that no longer
// matches the package makes it throw.

afterEach(() => {
  vi.unstubAllEnvs();
});

test("the client's example creates a session on the sandbox, reads it and asks a verify question", async () => {
  const sandbox = await startSandbox({ port: 0 });
  try {
    vi.stubEnv('IDV_BASE_URL', sandbox.url);
    vi.stubEnv('IDV_API_KEY', sandbox.apiKey);
    await import('../client/example.js');
  } finally {
    await sandbox.close();
  }
});

test("the client's criterion-matching example runs", async () => {
  await import('../client/criteria.js');
});

test("the sandbox's in-code example starts, advances and closes a sandbox", async () => {
  await import('../sandbox/in-tests.js');
});

// The demo serves pages that its Vite build makes (`pnpm demo` and the e2e suite build them; ~2 min,
// too slow here). Without them the example must fail the documented way, naming the build.
const demoPagesBuilt = existsSync(
  fileURLToPath(new URL('../../demo/dist/public/index.html', import.meta.url)),
);

test.runIf(demoPagesBuilt)("the demo's programmatic start serves its home page and closes", async () => {
  await import('../demo/start.js');
});

test.skipIf(demoPagesBuilt)(
  "the demo's programmatic start names the build when the pages are missing",
  async () => {
    await expect(import('../demo/start.js')).rejects.toThrow(/pnpm demo/);
  },
);

test("the express README's server timeouts are the created server's", async () => {
  vi.stubEnv('PORT', '0');
  const { server } = await import('../express/timeouts.js');
  try {
    expect(server.headersTimeout).toBe(10_000);
    expect(server.requestTimeout).toBe(30_000);
    expect(server.keepAliveTimeout).toBe(5_000);
    await new Promise((resolve) =>
      server.listening ? resolve(undefined) : server.once('listening', resolve),
    );
    const { port } = server.address() as { port: number };
    expect((await fetch(`http://127.0.0.1:${port}/nothing`)).status).toBe(404);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test("the widget's bundler and React examples import on Node (server rendering) and build the element", async () => {
  await import('../widget/bundler.js');
  const { VerifyIdentity } = await import('@verify-kit/widget/react');
  const { Verify } = await import('../widget/react.js');
  const element = Verify();
  expect(element.type).toBe(VerifyIdentity);
  expect(element.props).toMatchObject({
    endpoint: '/identity',
    locale: 'tr',
    strings: { start: 'Kimliğimi doğrula' },
  });
});
