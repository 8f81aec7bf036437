import { z } from 'zod';

/*
 * The v1 wire format. Strict where the spec fixes a rule (contact rules, locale, conditions, link
 * shapes, the 8-character code); open where the service owns the list (statuses, criterion types),
 * so a value the service adds later is accepted and typed, never a crash.
 */

/** A string the service may extend: autocomplete for the known values, any other string accepted. */
export type Open<Known extends string> = Known | (string & {});

export const LOCALES = ['en', 'tr'] as const;
export const LocaleSchema = z.enum(LOCALES);
export type Locale = z.infer<typeof LocaleSchema>;

export const CONDITIONS = [
  'EQUALS',
  'NOT_EQUALS',
  'CONTAINS',
  'NOT_CONTAINS',
  'STARTS_WITH',
  'ENDS_WITH',
] as const;
export const ConditionSchema = z.enum(CONDITIONS);
export type Condition = z.infer<typeof ConditionSchema>;

/** The criterion types named by the spec and DESIGN.md; the service may know more. */
export const KNOWN_CRITERION_TYPES = [
  'DOCUMENT_NUMBER',
  'DOCUMENT_PERSONAL_NUMBER',
  'DOCUMENT_OWNER_NAME',
  'DOCUMENT_OWNER_SURNAME',
  'DOCUMENT_TYPE',
  'DOCUMENT_COUNTRY',
] as const;
export type KnownCriterionType = (typeof KNOWN_CRITERION_TYPES)[number];
export type CriterionType = Open<KnownCriterionType>;

export const ApprovalCriterionSchema = z.strictObject({
  type: z.string().min(1).max(64) as z.ZodType<CriterionType>,
  condition: ConditionSchema,
  value: z.string().max(256),
  rejectIfNotMet: z.boolean().optional(),
  accentInsensitive: z.boolean().optional(),
});
export type ApprovalCriterion = z.infer<typeof ApprovalCriterionSchema>;

export const MIN_DURATION_MINUTES = 1;
export const MAX_DURATION_MINUTES = 1440;
export const DEFAULT_DURATION_MINUTES = 30;

export const EmailSchema = z.email().max(254);
/** Digits with optional leading +, spaces, dashes, dots and parentheses; 7 to 15 digits. */
export const PhoneNumberSchema = z
  .string()
  .max(32)
  .regex(/^\+?[0-9 ().-]+$/, 'phone number may hold only digits, spaces, + - . ( )')
  .refine((v) => {
    const digits = v.replace(/\D/g, '').length;
    return digits >= 7 && digits <= 15;
  }, 'phone number must have 7 to 15 digits');

export const CreateSessionRequestSchema = z
  .strictObject({
    workflowId: z.string().min(1).max(128),
    email: EmailSchema.optional(),
    phoneNumber: PhoneNumberSchema.optional(),
    sendOTP: z.boolean().optional(),
    locale: LocaleSchema,
    duration: z.int().min(MIN_DURATION_MINUTES).max(MAX_DURATION_MINUTES).optional(),
    approvalCriteria: z.array(ApprovalCriterionSchema).max(50).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.sendOTP === false) return;
    const given = (body.email !== undefined ? 1 : 0) + (body.phoneNumber !== undefined ? 1 : 0);
    if (given !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: given === 0 ? ['email'] : ['phoneNumber'],
        message:
          given === 0
            ? 'with sendOTP true (the default) exactly one of email or phoneNumber is required'
            : 'with sendOTP true (the default) give email or phoneNumber, not both',
      });
    }
  });
export type CreateSessionRequest = z.input<typeof CreateSessionRequestSchema>;

/** 8 alphanumeric characters (spec); the sandbox uses an unambiguous upper-case alphabet. */
export const SessionCodeSchema = z
  .string()
  .regex(/^[A-Za-z0-9]{8}$/, 'sessionCode must be 8 alphanumeric characters');

/**
 * An id or code of the service, opaque: 1 to 256 printable ASCII characters, nothing more is
 * assumed (the vendor's ids need not be UUIDs).
 */
const OpaqueSchema = z.string().regex(/^[\x21-\x7e]{1,256}$/, 'must be 1 to 256 printable characters');

/** Schemes a link from the service may never have: they run code or read files where clicked. */
export const DANGEROUS_SCHEMES: readonly string[] = ['javascript:', 'data:', 'vbscript:', 'file:', 'blob:'];

/** Where the deep link may lead: a URL whose scheme is not a dangerous one, passed through unchanged. */
export const DeepLinkSchema = z
  .string()
  .max(2048)
  .refine((value) => URL.canParse(value), 'deepLink must be a URL')
  .refine(
    (value) => !URL.canParse(value) || !DANGEROUS_SCHEMES.includes(new URL(value).protocol.toLowerCase()),
    'deepLink must not be a javascript:, data:, vbscript:, file: or blob: link',
  );

const HttpLinkSchema = z.url({ protocol: /^https?$/ }).max(2048);

/**
 * The creation answer as the production client takes it: ids and code opaque, links checked only
 * where safety needs it (http(s) pages, a deep link of a harmless scheme, in any segment order),
 * other fields dropped. `expiresAt` is kept only when it is a date.
 */
export const CreateSessionResponseSchema = z.object({
  id: OpaqueSchema,
  identificationId: OpaqueSchema,
  sessionCode: OpaqueSchema,
  deepLink: DeepLinkSchema,
  qrCodeLink: HttpLinkSchema,
  sessionPageLink: HttpLinkSchema,
  /** Not in the spec; the sandbox sends it. The kit computes it from `duration` when absent. */
  expiresAt: z.iso
    .datetime({ offset: true })
    .optional()
    .catch(() => undefined),
});

// The service's ids are UUID-shaped in the spec; z.guid() accepts any 8-4-4-4-12 hex id.
const IdSchema = z.guid();

/**
 * The spec's exact shapes (UUID ids, the 8-character code, the link suffixes): the sandbox's
 * conformance, and the client's `strict: true` for people who want an alarm on any drift.
 */
export const StrictCreateSessionResponseSchema = z
  .looseObject({
    id: IdSchema,
    identificationId: IdSchema,
    sessionCode: SessionCodeSchema,
    deepLink: DeepLinkSchema.refine(
      (value) => /^[a-z][a-z0-9+.-]*:\/\/app-url\/.+/i.test(value),
      'deepLink must be <app_scheme>://app-url/…',
    ),
    qrCodeLink: HttpLinkSchema,
    sessionPageLink: HttpLinkSchema,
    expiresAt: z.iso.datetime({ offset: true }).optional(),
  })
  .superRefine((res, ctx) => {
    const shapes = [
      ['deepLink', `/verification-session/${res.id}`],
      ['qrCodeLink', `/api/v1/verification-sessions/${res.id}/qr-code`],
      ['sessionPageLink', `/public/verification-sessions/${res.id}`],
    ] as const;
    for (const [field, suffix] of shapes) {
      if (!res[field].endsWith(suffix)) {
        ctx.addIssue({ code: 'custom', path: [field], message: `${field} must end with ${suffix}` });
      }
    }
  });
export type CreateSessionResponse = z.infer<typeof CreateSessionResponseSchema>;

export const IDENTIFICATION_STATUS = {
  IN_AUTOMATIC_REVIEW: 'IN_AUTOMATIC_REVIEW',
  IN_MANUAL_REVIEW: 'IN_MANUAL_REVIEW',
  APPROVED: 'APPROVED',
  REJECTED: 'REJECTED',
  RESUBMISSION_REQUIRED: 'RESUBMISSION_REQUIRED',
} as const;
export type KnownIdentificationStatus = (typeof IDENTIFICATION_STATUS)[keyof typeof IDENTIFICATION_STATUS];
export type IdentificationStatus = Open<KnownIdentificationStatus>;
export const KNOWN_STATUSES = Object.values(IDENTIFICATION_STATUS) as readonly KnownIdentificationStatus[];

export const IdentificationStatusSchema = z.string().min(1).max(64) as z.ZodType<IdentificationStatus>;

export function isKnownStatus(status: string): status is KnownIdentificationStatus {
  return (KNOWN_STATUSES as readonly string[]).includes(status);
}

/** The only status that lets a person through. Anything else, known or not, is "not approved". */
export function isApproved(status: string | undefined | null): boolean {
  return status === IDENTIFICATION_STATUS.APPROVED;
}

export const IdentificationSchema = z.looseObject({
  id: z.string().min(1),
  status: IdentificationStatusSchema,
});
export type Identification = z.infer<typeof IdentificationSchema>;

export const VERIFY_TYPES = [
  'CONTACT_EMAIL',
  'CONTACT_PHONE',
  'DOCUMENT_NUMBER',
  'DOCUMENT_TYPE',
  'DOCUMENT_COUNTRY',
] as const;
export const VerifyTypeSchema = z.enum(VERIFY_TYPES);
export type VerifyType = z.infer<typeof VerifyTypeSchema>;

/** The shape a verify value must have for its type (DESIGN.md decision 9). */
const verifyValueShapes: Record<VerifyType, z.ZodType<string>> = {
  CONTACT_EMAIL: EmailSchema,
  CONTACT_PHONE: PhoneNumberSchema,
  DOCUMENT_NUMBER: z.string().regex(/\S/, 'document number must not be blank').max(64),
  DOCUMENT_TYPE: z.enum(['I', 'P']),
  DOCUMENT_COUNTRY: z.string().regex(/^[A-Za-z]{3}$/, 'country must be an ISO 3166-1 alpha-3 code'),
};

export const VerifyRequestSchema = z
  .strictObject({ type: VerifyTypeSchema, value: z.string().min(1).max(256) })
  .superRefine((body, ctx) => {
    const shape = verifyValueShapes[body.type].safeParse(body.value);
    if (!shape.success) {
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: shape.error.issues[0]?.message ?? `invalid value for ${body.type}`,
      });
    }
  });
export type VerifyRequest = z.infer<typeof VerifyRequestSchema>;

/** `{ verified }` only: other fields of the answer are dropped, never passed on. */
export const VerifyResponseSchema = z.object({ verified: z.boolean() });
export type VerifyResponse = z.infer<typeof VerifyResponseSchema>;

/** The error body of DESIGN.md, used by the sandbox and the kit alike. */
export const ErrorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.array(z.unknown()).optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export const WEBHOOK_EVENT_TYPES = [
  'verification_session.created',
  'verification_session.completed',
  'verification_session.cancelled',
  'identification.created',
  'identification.submitted',
  'identification.in_automatic_review',
  'identification.in_manual_review',
  'identification.approved',
  'identification.rejected',
  'identification.resubmission_required',
  // Documented by the vendor, not by the spec: hints, the next read decides.
  'identification.failed',
  'identification.waiting_for_status_change_approval',
] as const;
export type WebhookEventType = Open<(typeof WEBHOOK_EVENT_TYPES)[number]>;

export const WebhookPayloadSchema = z.looseObject({
  type: z.string().min(1) as z.ZodType<WebhookEventType>,
  timestamp: z.string(),
  data: z.looseObject({
    verificationSessionId: z.string().min(1),
    identificationId: z.string().min(1),
    status: IdentificationStatusSchema.optional(),
  }),
});
export type WebhookPayload = z.infer<typeof WebhookPayloadSchema>;
