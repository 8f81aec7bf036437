import { webhookSecretKey, webhookSecretProblem } from '@verify-kit/protocol/webhooks';
import { z } from 'zod';

/*
 * A secret is read by @verify-kit/protocol's webhookSecretKey (`whsec_<base64>`, the prefix optional,
 * at least 16 bytes; docs/architecture.md, decision 13), the one reading the client and core share.
 */
const problem = { error: (issue: { input?: unknown }) => webhookSecretProblem(issue.input) };

/** A Standard Webhooks secret, for every option that takes one (the kit's, the sandbox's). */
export const WebhookSecretSchema = z
  .string(problem)
  .refine((secret) => webhookSecretKey(secret) !== undefined, problem);
