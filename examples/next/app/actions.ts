'use server';

import { redirect } from 'next/navigation';
import { kit } from '@/lib/verify-kit';

// The app's Server Actions, one module shared by its pages. The proxy gates pages, not actions:
// Next.js runs an action posted to any page that imports its module (the public home page too), so
// an action only verified people may run says so, first thing.

/** The statement only a verified person may see. */
export async function statement(): Promise<string> {
  await kit.assertApproved();
  return 'Your statement: 3 verified logins this month.';
}

/** Unbinds the verification (its cookie cleared through cookies()), then back to /verify. */
export async function forgetMe(): Promise<void> {
  await kit.forget();
  redirect('/verify');
}
