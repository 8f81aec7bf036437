import { createHash } from 'node:crypto';
import type { BindingStore } from '@verify-kit/express';
import type { Request } from 'express';
import type { BoundSession } from './demo-api.js';

/**
 * The verification the kit bound to the signed-in account (accountOf: the session's userId), read
 * from the kit's binding store. The demo reads only the two ids, for the simulator's address and
 * the activity log.
 */
export function boundSessionOf(store: BindingStore) {
  return async (req: Request): Promise<BoundSession | undefined> => {
    const accountId = req.session.userId;
    if (accountId === undefined) return undefined;
    const binding = await store.get(accountId);
    if (binding === undefined) return undefined;
    return {
      verificationSessionId: binding.verificationSessionId,
      identificationId: binding.identificationId,
    };
  };
}

/** The same person (by e-mail) is the same demo account on every sign-in; the id shows nothing of the address. */
export function accountIdOf(email: string): string {
  return `demo-${createHash('sha256').update(email.trim().toLowerCase()).digest('base64url').slice(0, 22)}`;
}
