import { kit } from '@/lib/verify-kit';
import { forgetMe } from '../actions';
import { Statement } from './statement';

// Only verified people reach this page: proxy.ts gates /account. The page reads the same verification
// for what it shows; its actions gate themselves (actions.ts).

export default async function AccountPage() {
  const { status, phase } = await kit.statusOf();
  return (
    <main>
      <h1>Your account</h1>
      <p data-testid="status">
        Verified: {status} ({phase})
      </p>
      <Statement />
      <form action={forgetMe}>
        <button type="submit">Forget my verification</button>
      </form>
    </main>
  );
}
