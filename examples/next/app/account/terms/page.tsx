// A static page behind the gate (prerendered at build time): the gate's answer keeps any shared
// cache (a CDN, a proxy) from serving it to somebody else.
export default function TermsPage() {
  return (
    <main>
      <h1>Account terms</h1>
      <p data-testid="terms">Only verified people read these terms.</p>
    </main>
  );
}
