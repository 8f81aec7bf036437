import type { AuditEvent } from '@verify-kit/express';
import { createVerifyKit } from '@verify-kit/express';

/** Stand-ins for the app's own database and audit log. */
export const verifiedAccounts = new Set<string>();
export const auditEvents: AuditEvent[] = [];
const db = {
  users: { update: async (id: string, _fields: { verified: boolean }) => verifiedAccounts.add(id) },
};
const auditLog = { write: (event: AuditEvent) => auditEvents.push(event) };

const kit = createVerifyKit({
  baseUrl: process.env.IDV_BASE_URL!,
  apiKey: process.env.IDV_API_KEY!,
  workflowId: 'default',
  accountOf: (req) => req.session.userId,
  // event: { accountId?, identificationId, verificationSessionId, status, previousStatus?, phase, at }
  onStatusChange: async ({ accountId, status }) => {
    if (accountId && status === 'APPROVED') await db.users.update(accountId, { verified: true });
  },
  onAudit: (event) => auditLog.write(event), // { type, at, accountId?, identificationId?, detail? }
});

export { kit };
