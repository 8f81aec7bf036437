// The Fetch door's gate through a real shared cache: the app sets the gate's headers on the page's
// answer, over its own Cache-Control, as the README shows (issue 40, finding 4).
import { CACHEABLE, describeGrantsNotShared, serveFetch } from '@verify-kit/testkit';
import { createVerifyKit } from '../src/index.js';

describeGrantsNotShared('the Fetch door', async (sandbox) => {
  const kit = createVerifyKit({
    baseUrl: sandbox.url,
    apiKey: sandbox.apiKey,
    workflowId: 'default',
    basePath: '/identity',
    secret: 'fetch-shared-cache-test-secret-0123456789',
  });
  const page = (text: string) => new Response(text, { headers: { 'Cache-Control': CACHEABLE } });
  const served = await serveFetch(async (request, context) => {
    const { pathname } = new URL(request.url);
    if (pathname.startsWith('/identity/')) return kit.handle(request, context);
    if (pathname === '/public') return page('for everybody');
    const gate = await kit.gate(request, undefined, context);
    if (gate.kind !== 'granted') return gate.response;
    const response = page('only for verified people');
    for (const [name, value] of gate.headers) {
      if (name === 'set-cookie') response.headers.append(name, value);
      else response.headers.set(name, value);
    }
    return response;
  });
  return {
    url: served.url,
    async close() {
      await kit.close();
      await served.close();
    },
  };
});
