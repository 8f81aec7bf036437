// This file stands beside the example app, not in it: lib/verify-kit.ts with the optional extras.
// examples/test/next-accounts.test.ts runs it against the sandbox.
import { createVerifyKit } from '@verify-kit/next';

/** Your app's sign-in sessions (a stand-in here: yours are in your database or a sealed cookie). */
export const sessions = new Map<string, { userId: string }>();

export const kit = createVerifyKit({
  baseUrl: process.env.IDV_BASE_URL!,
  apiKey: process.env.IDV_API_KEY!,
  workflowId: 'default',
  webhookSecret: process.env.IDV_WEBHOOK_SECRET,
  secret: process.env.VERIFY_KIT_SECRET!,
  // The signed-in account: its verification follows the person across browsers and devices.
  accountOf: (request) => {
    const id = /(?:^|;\s*)session=([\w-]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
    return id === undefined ? undefined : sessions.get(id)?.userId;
  },
  // Where the client's address for the limits comes from: on Vercel, Fly.io and Netlify the kit reads
  // their header by itself; here an nginx in front sets X-Real-IP. Behind proxies of your own that
  // append to X-Forwarded-For: { xForwardedForHops: 1 }.
  clientAddress: 'x-real-ip',
});
