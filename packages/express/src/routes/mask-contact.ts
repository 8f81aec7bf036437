import type { SendLinkContact } from '../send-link.js';

/** Where a link goes, as the person may see it: `a•••@example.com`, `•••••67`. */
export function maskContact({ channel, to }: SendLinkContact): string {
  if (channel === 'email') {
    const at = to.lastIndexOf('@');
    return `${to.slice(0, Math.min(1, at))}•••${to.slice(at)}`;
  }
  return `•••••${to.replace(/\D/g, '').slice(-2)}`;
}
