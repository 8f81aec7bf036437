import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '@verify-kit/sandbox';
import { describe, expect, test } from 'vitest';
import { run, start } from '../../scripts/pack-check/exec.mjs';
import { probeExpressExample } from '../../scripts/pack-check/probe.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

// Each example file is a fenced ts/js block of its package's README, verbatim: what a reader copies
// is what `pnpm lint` type-checks (examples/tsconfig.json) and this test runs.
const EXAMPLES = [
  { readme: 'packages/express/README.md', file: 'examples/express/server.ts' },
  { readme: 'packages/widget/README.md', file: 'examples/widget/bundler.ts' },
  { readme: 'packages/sandbox/README.md', file: 'examples/sandbox/control.ts' },
];

function fencedBlocks(markdown: string): string[] {
  const blocks = markdown.matchAll(/^```(?:ts|js|typescript|javascript)\n([\s\S]*?)^```$/gm);
  return [...blocks].map((match) => match[1] ?? '');
}

describe('README examples are the files under examples/', () => {
  for (const { readme, file } of EXAMPLES) {
    test(`${readme} shows ${file}`, async () => {
      const blocks = fencedBlocks(await readFile(`${root}/${readme}`, 'utf8'));
      expect(blocks).toContain(await readFile(`${root}/${file}`, 'utf8'));
    });
  }
});

test('the express example gates a visitor without a verification and starts one against the sandbox', async () => {
  const sandbox = await startSandbox({ port: 0 });
  try {
    const app = await start('node', ['--conditions=source', '--import', 'tsx', 'express/server.ts'], {
      cwd: `${root}/examples`,
      ready: /listening on (http:\/\/\S+)/,
      env: { IDV_BASE_URL: sandbox.url, IDV_API_KEY: sandbox.apiKey, SESSION_SECRET: 'test', PORT: '0' },
    });
    try {
      const status = await probeExpressExample(app.match[1] ?? '');
      expect(status.phase).toBe('awaiting_user');
    } finally {
      app.stop();
    }
  } finally {
    await sandbox.close();
  }
});

test('the sandbox control example approves through a reviewer, then revokes the approval', async () => {
  const output = await run('node', ['--conditions=source', '--import', 'tsx', 'sandbox/control.ts'], {
    cwd: `${root}/examples`,
  });
  expect(output).toContain('status REJECTED');
});
