import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useStandInDemo } from './support/stand-in-demo.js';

const dist = new URL('../../packages/widget/dist/', import.meta.url);

const env = useStandInDemo();

describe("the widget's standalone module", () => {
  it('is served at a versioned address, cached for a year and immutable, with its strings files', async () => {
    const moved = await fetch(`${env.demo.url}/widget/verify-identity.standalone.js`, { redirect: 'manual' });
    expect(moved.status).toBe(302);
    expect(moved.headers.get('cache-control')).toBe('no-cache');
    const location = moved.headers.get('location') ?? '';
    expect(location).toMatch(/^\/widget\/[0-9a-f]{12}\/verify-identity\.standalone\.js$/);

    const module = await fetch(new URL(location, env.demo.url));
    expect(module.status).toBe(200);
    expect(module.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    expect(module.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await module.arrayBuffer())).toEqual(
      readFileSync(fileURLToPath(new URL('verify-identity.standalone.js', dist))),
    );
    // The strings it imports on demand, under the same version.
    const arabic = await fetch(new URL(location.replace('standalone', 'strings.ar'), env.demo.url));
    expect([arabic.status, arabic.headers.get('cache-control')]).toEqual([
      200,
      'public, max-age=31536000, immutable',
    ]);
    // Only the widget's files: nothing else of its dist folder.
    const other = await fetch(
      new URL(location.replace('verify-identity.standalone.js', 'index.js'), env.demo.url),
    );
    expect(other.status).toBe(404);
  });
});
