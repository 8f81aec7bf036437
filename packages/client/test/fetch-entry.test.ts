import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// `@verify-kit/client/fetch` is what @verify-kit/core may import: bundled for esbuild's neutral
// platform, its graph holds no Node built-in and no undici (core's own check, run on this entry).
interface Offence {
  path: string;
  importer: string;
  why: string;
}
type CheckNeutralBundle = (entry: string) => Promise<{ inputs: number; offences: Offence[] }>;

// A plain .mjs without types: imported by URL, typed here.
const script = new URL('../../core/scripts/neutral-bundle.mjs', import.meta.url).href;
const { checkNeutralBundle } = (await import(script)) as { checkNeutralBundle: CheckNeutralBundle };
const entry = (name: string) => fileURLToPath(new URL(`../src/${name}`, import.meta.url));

describe('the fetch entry is runtime-neutral', () => {
  it('imports no Node built-in, undici or other server package', async () => {
    const { offences, inputs } = await checkNeutralBundle(entry('fetch.ts'));
    expect(offences).toEqual([]);
    expect(inputs).toBeGreaterThan(1);
  });

  it('the check sees what the main entry imports (undici, node:crypto), so it would see it there', async () => {
    const { offences } = await checkNeutralBundle(entry('index.ts'));
    expect(offences.map(({ path, importer }) => `${path} <- ${importer}`).sort()).toEqual([
      'node:crypto <- packages/client/src/webhooks.ts',
      'undici <- packages/client/src/client.ts',
      'undici <- packages/client/src/undici-attempt.ts',
    ]);
  });
});
