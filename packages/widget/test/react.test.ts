import { createElement } from 'react';
import { describe, expect, it } from 'vitest';

describe('@verify-kit/widget/react', () => {
  it('imports on a server (no window) and makes elements with typed props and event handlers', async () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined');
    const { VerifyIdentity } = await import('@verify-kit/widget/react');
    expect((VerifyIdentity as { displayName?: string }).displayName).toBe('VerifyIdentity');
    const onApproved = (event: CustomEvent<{ phase: string }>) => event.detail.phase;
    const element = createElement(VerifyIdentity, { endpoint: '/identity', locale: 'tr', onApproved });
    expect(element.props).toMatchObject({ endpoint: '/identity', locale: 'tr' });
  });
});
