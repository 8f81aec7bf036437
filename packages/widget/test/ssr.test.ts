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

  it('exposes the string tables (English built in, Turkish its own entry) with the same keys and no empty string', async () => {
    const { en } = await import('@verify-kit/widget');
    const { tr } = await import('@verify-kit/widget/locales/tr');
    expect(Object.keys(tr).sort()).toEqual(Object.keys(en).sort());
    for (const table of [en, tr]) {
      for (const [key, text] of Object.entries(table)) expect(text.trim(), key).not.toBe('');
    }
    expect(tr.timeLeft).toContain('{time}');
  });

  it('says the time left plural-correct in each language, rounding up and never below zero', async () => {
    const { en } = await import('@verify-kit/widget');
    const { tr } = await import('@verify-kit/widget/locales/tr');
    const { timeLeftText } = await import('../src/time-left.js');
    expect(timeLeftText(29 * 60_000 + 59_500, en, 'en')).toBe('Time left: 30 minutes');
    expect(timeLeftText(60_000, en, 'en')).toBe('Time left: 1 minute');
    expect(timeLeftText(59_000, en, 'en')).toBe('Time left: 59 seconds');
    expect(timeLeftText(500, en, 'en')).toBe('Time left: 1 second');
    expect(timeLeftText(-5, en, 'en')).toBe('Time left: 0 seconds');
    expect(timeLeftText(120_000, tr, 'tr')).toBe('Kalan süre: 2 dakika');
    expect(timeLeftText(1_000, tr, 'tr')).toBe('Kalan süre: 1 saniye');
  });
});
