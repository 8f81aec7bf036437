import { z } from 'zod';

/** What the kit keeps of a verification per account or browser session: no key, no personal data. */
export interface VerificationBinding {
  verificationSessionId: string;
  identificationId: string;
  deepLink: string;
  sessionCode: string;
  sessionPageLink: string;
  /** ISO 8601 end of the verification session. */
  expiresAt: string;
  /** ISO 8601; set once the session id was regenerated after the first approval (fixation). */
  approvedAt?: string;
  /** SHA-256 of the binding secret (binding-proof.ts); anonymous bindings only. */
  proof?: string;
  /**
   * SHA-256 of the starting browser's holder (SessionRequestBody.holder), when it sent one: only a
   * request with the same holder resumes it (anonymous bindings only).
   */
  holder?: string;
}

// Store contents are data from outside the process: checked before use.
const BindingSchema = z.object({
  verificationSessionId: z.string().min(1),
  identificationId: z.string().min(1),
  deepLink: z.string().min(1),
  sessionCode: z.string().min(1),
  sessionPageLink: z.string().min(1),
  expiresAt: z.string().min(1),
  approvedAt: z.string().optional(),
  proof: z.string().optional(),
  holder: z.string().optional(),
});

/** A binding read from a store (outside data): the binding, or undefined when it is not one. */
export function parseBinding(value: unknown): VerificationBinding | undefined {
  const parsed = BindingSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
