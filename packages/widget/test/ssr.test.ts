import { describe, expect, it } from 'vitest';

// Server-side rendering frameworks import the element on Node, where there is no DOM.
describe('@verify-kit/widget on a server (SSR)', () => {
  it('imports without throwing and registers through the guard only where a registry exists', async () => {
    const widget = await import('@verify-kit/widget');
    expect(typeof widget.VerifyIdentity).toBe('function');
    // Lit's Node build brings a registry shim; the guard must not define the element twice.
    const again = await import('../src/verify-identity.js');
    expect(again.VerifyIdentity).toBe(widget.VerifyIdentity);
    const registry = (globalThis as { customElements?: CustomElementRegistry }).customElements;
    if (registry) expect(registry.get('verify-identity')).toBe(widget.VerifyIdentity);
  });

  it('exposes the string tables for both locales with the same keys and no empty string', async () => {
    const { en, tr } = await import('@verify-kit/widget');
    expect(Object.keys(tr).sort()).toEqual(Object.keys(en).sort());
    for (const table of [en, tr]) {
      for (const [key, text] of Object.entries(table)) expect(text.trim(), key).not.toBe('');
    }
    expect(tr.timeLeft).toContain('{time}');
  });

  it('formats the time left for reading, rounding up and never below zero', async () => {
    const { formatTimeLeft } = await import('@verify-kit/widget');
    expect(formatTimeLeft(29 * 60_000 + 59_500)).toBe('30:00');
    expect(formatTimeLeft(61_000)).toBe('1:01');
    expect(formatTimeLeft(3_600_000 + 5_000)).toBe('1:00:05');
    expect(formatTimeLeft(-5)).toBe('0:00');
  });

  it('reads Retry-After as seconds or an HTTP date', async () => {
    const { parseRetryAfter } = await import('@verify-kit/widget');
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});
