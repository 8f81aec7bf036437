import { redirect } from 'next/navigation';
import { kit } from '@/lib/verify-kit';

// Only verified people reach this page: proxy.ts gates /account. The page reads the same verification
// for what it shows, and a Server Action forgets it.

async function forgetMe() {
  'use server';
  await kit.forget();
  redirect('/verify');
}

export default async function AccountPage() {
  const { status, phase } = await kit.statusOf();
  return (
    <main>
      <h1>Your account</h1>
      <p data-testid="status">
        Verified: {status} ({phase})
      </p>
      <form action={forgetMe}>
        <button type="submit">Forget my verification</button>
      </form>
    </main>
  );
}
