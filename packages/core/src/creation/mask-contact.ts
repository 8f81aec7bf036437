import type { SendLinkChannel } from '@verify-kit/protocol';

/**
 * Where a link goes (send-link.ts's SendLinkContact, typed here by shape: send-link imports this
 * module), as the person may see it: `a•••@example.com`, `•••••67`.
 */
export function maskContact({ channel, to }: { channel: SendLinkChannel; to: string }): string {
  if (channel === 'email') {
    const at = to.lastIndexOf('@');
    return `${to.slice(0, Math.min(1, at))}•••${to.slice(at)}`;
  }
  return `•••••${to.replace(/\D/g, '').slice(-2)}`;
}
