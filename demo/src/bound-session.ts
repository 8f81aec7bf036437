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

/**
 * The demo account: this browser's random id (browser-id.ts) and the e-mail typed at sign-in. The
 * same browser and address are the same account on every sign-in; the e-mail alone is nobody's.
 * The id shows nothing of either.
 */
export function accountIdOf(browserId: string, email: string): string {
  const digest = createHash('sha256')
    .update(`${browserId}\n${email.trim().toLowerCase()}`)
    .digest('base64url');
  return `demo-${digest.slice(0, 22)}`;
}
