import Link from 'next/link';
import { kit } from '@/lib/verify-kit';
import { forgetMe } from './actions';

// A page outside the gate may read the verification too, e.g. for a badge: statusOf() is read-only,
// so reading it here (a Server Component, where Next.js lets no cookie be set) loses nothing.
export default async function Home() {
  const { approved } = await kit.statusOf();
  return (
    <main>
      <h1>verify-kit on Next.js</h1>
      <p data-testid="badge">{approved ? 'Verified' : 'Not verified yet'}</p>
      {approved && (
        <form action={forgetMe}>
          <button type="submit">Forget my verification</button>
        </form>
      )}
      <p>
        <Link href="/account">Your account</Link> opens for verified people only; the others go to{' '}
        <Link href="/verify">Verify your identity</Link> first.
      </p>
    </main>
  );
}
