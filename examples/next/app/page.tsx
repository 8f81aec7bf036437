import Link from 'next/link';

export default function Home() {
  return (
    <main>
      <h1>verify-kit on Next.js</h1>
      <p>
        <Link href="/account">Your account</Link> opens for verified people only; the others go to{' '}
        <Link href="/verify">Verify your identity</Link> first.
      </p>
    </main>
  );
}
