import { startSandbox } from '@verify-kit/sandbox';
import { createSandboxControl } from '@verify-kit/sandbox/control';

const sandbox = await startSandbox({ reviewDelayMs: 0 });
// a sandbox started elsewhere (npx verify-kit-sandbox): createSandboxControl({ url, apiKey })
const control = createSandboxControl(sandbox);

// Your app creates the session (in your test: through your own route); here, the v1 API directly.
const response = await fetch(`${sandbox.url}/api/v1/verification-sessions`, {
  method: 'POST',
  headers: { 'x-api-key': sandbox.apiKey, 'content-type': 'application/json' },
  body: JSON.stringify({ workflowId: 'default', locale: 'en', sendOTP: false }),
});
const { sessionCode } = (await response.json()) as { sessionCode: string };

// The person types the code in the app and shows a document; a reviewer looks at it.
const { identificationId } = await control.submitByCode(sessionCode, 'manual_review');
await control.waitForStatus(identificationId, 'IN_MANUAL_REVIEW');
await control.decide(identificationId, 'APPROVED');
// Later the approval is revoked: your app must see it on its next read.
await control.setStatus(identificationId, 'REJECTED');
console.log('status', await control.readStatus(identificationId));

await sandbox.close();
