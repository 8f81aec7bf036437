import { type Sandbox, TEST_DOCUMENTS } from '@verify-kit/sandbox';

/** What the person does on the phone: opens the session by its code and submits a test document. */
export async function submitDocument(sandbox: Sandbox, sessionCode: string): Promise<void> {
  const found = await fetch(`${sandbox.url}/sandbox/sessions/by-code/${sessionCode}`);
  if (!found.ok) throw new Error(`session by code: ${found.status} ${await found.text()}`);
  const { id } = (await found.json()) as { id: string };
  const document = { ...TEST_DOCUMENTS[0]!.document, scenario: 'approve' };
  const submitted = await fetch(`${sandbox.url}/sandbox/sessions/${id}/documents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(document),
  });
  if (!submitted.ok) throw new Error(`document: ${submitted.status} ${await submitted.text()}`);
}
