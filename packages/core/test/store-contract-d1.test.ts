// The published store contract (@verify-kit/core/testing) on sqlStore over Cloudflare D1 as workerd
// runs it, through Miniflare (npm): d1Driver runs in a Worker on its D1 binding (bundled from core's
// source), and the contract's driver, in Node, sends each statement to that Worker.
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { afterAll } from 'vitest';
import { migrate, type SqlDriver, sqlStore } from '../src/sql.js';
import { runStoreContract } from '../src/testing.js';

let miniflare: Miniflare | undefined;
afterAll(async () => {
  await miniflare?.dispose();
});

async function workerDriver(): Promise<SqlDriver> {
  const bundle = await build({
    entryPoints: [new URL('./fixtures/d1-driver-worker.ts', import.meta.url).pathname],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    conditions: ['source'],
  });
  miniflare = new Miniflare({ modules: true, script: bundle.outputFiles[0]!.text, d1Databases: ['DB'] });
  const worker = miniflare;
  const call = async (body: object) => {
    const res = await worker.dispatchFetch('http://worker/', { method: 'POST', body: JSON.stringify(body) });
    const answer = (await res.json()) as { rows: Record<string, unknown>[]; error?: string };
    if (answer.error !== undefined) throw new Error(answer.error);
    return answer.rows;
  };
  return {
    dialect: 'sqlite',
    query: (text, params) => call({ call: 'query', text, params }),
    transaction: async (statements) => void (await call({ call: 'transaction', statements })),
  };
}

runStoreContract(
  async () => {
    const driver = await workerDriver();
    await migrate(driver);
    return sqlStore(driver);
  },
  // D1 runs one statement at a time: 20 callers at once prove one winner as 50 would, in less time.
  { name: 'sqlStore on Cloudflare D1 (d1Driver in workerd, through Miniflare)', concurrency: 20 },
);
