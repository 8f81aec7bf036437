import { describe, expect, it } from 'vitest';
import {
  ApprovalCriterionSchema,
  CreateSessionRequestSchema,
  CreateSessionResponseSchema,
  IdentificationSchema,
  isApproved,
  isKnownStatus,
  StrictCreateSessionResponseSchema,
  VerifyRequestSchema,
  VerifyResponseSchema,
  WebhookPayloadSchema,
} from '../src/index.js';

const ID = '0b5c8a34-6a1e-4d8e-9a57-2f4f0c1d9e11';
const BASE = 'https://idv.example.com';
const response = {
  id: ID,
  identificationId: '7d0f3b5e-1c2a-4b9e-8f6d-3a2b1c0d9e8f',
  sessionCode: 'K7M2P9QX',
  deepLink: `idv://app-url/${BASE}/verification-session/${ID}`,
  qrCodeLink: `${BASE}/api/v1/verification-sessions/${ID}/qr-code`,
  sessionPageLink: `${BASE}/public/verification-sessions/${ID}`,
};

const valid = (schema: { safeParse(v: unknown): { success: boolean } }, value: unknown) =>
  schema.safeParse(value).success;

describe('CreateSessionRequestSchema: contact rules', () => {
  const base = { workflowId: 'default', locale: 'en' };
  it.each([
    ['email only, sendOTP omitted', { email: 'a@example.com' }, true],
    ['phone only, sendOTP true', { phoneNumber: '+90 (555) 123-4567', sendOTP: true }, true],
    ['neither, sendOTP omitted', {}, false],
    ['neither, sendOTP true', { sendOTP: true }, false],
    ['both, sendOTP omitted', { email: 'a@example.com', phoneNumber: '+905551234567' }, false],
    ['both, sendOTP true', { email: 'a@example.com', phoneNumber: '+905551234567', sendOTP: true }, false],
    ['neither, sendOTP false (contact-less)', { sendOTP: false }, true],
    ['both, sendOTP false', { email: 'a@example.com', phoneNumber: '+905551234567', sendOTP: false }, true],
    ['email only, sendOTP false', { email: 'a@example.com', sendOTP: false }, true],
    ['a malformed email', { email: 'not-an-email' }, false],
    ['a phone with letters', { phoneNumber: '+90 555 CALL ME' }, false],
    ['a phone with too few digits', { phoneNumber: '12345' }, false],
    ['sendOTP as a string', { email: 'a@example.com', sendOTP: 'false' }, false],
  ])('%s -> valid %s', (_name, change, ok) => {
    expect(valid(CreateSessionRequestSchema, { ...base, ...change })).toBe(ok);
  });
});

describe('CreateSessionRequestSchema: other fields', () => {
  const base = { workflowId: 'default', sendOTP: false, locale: 'tr' };
  it.each([
    ['locale en', { locale: 'en' }, true],
    ['locale tr', { locale: 'tr' }, true],
    ['locale de', { locale: 'de' }, false],
    ['locale EN', { locale: 'EN' }, false],
    ['locale missing', { locale: undefined }, false],
    ['workflowId missing', { workflowId: undefined }, false],
    ['workflowId empty', { workflowId: '' }, false],
    ['duration 1', { duration: 1 }, true],
    ['duration 1440', { duration: 1440 }, true],
    ['duration 0', { duration: 0 }, false],
    ['duration 1441', { duration: 1441 }, false],
    ['duration 2.5', { duration: 2.5 }, false],
    ['duration "30"', { duration: '30' }, false],
    ['an unknown field', { callbackUrl: 'https://x' }, false],
    [
      'criteria of an unknown type',
      { approvalCriteria: [{ type: 'DOCUMENT_EXPIRY', condition: 'EQUALS', value: 'x' }] },
      true,
    ],
    [
      'criteria with every option',
      {
        approvalCriteria: [
          {
            type: 'DOCUMENT_OWNER_NAME',
            condition: 'STARTS_WITH',
            value: 'Ş',
            rejectIfNotMet: true,
            accentInsensitive: true,
          },
        ],
      },
      true,
    ],
    [
      'a criterion with an unknown condition',
      { approvalCriteria: [{ type: 'X', condition: 'MATCHES', value: 'x' }] },
      false,
    ],
    ['a criterion without value', { approvalCriteria: [{ type: 'X', condition: 'EQUALS' }] }, false],
    [
      'a criterion with an empty type',
      { approvalCriteria: [{ type: '', condition: 'EQUALS', value: 'x' }] },
      false,
    ],
  ])('%s -> valid %s', (_name, change, ok) => {
    expect(valid(CreateSessionRequestSchema, { ...base, ...change })).toBe(ok);
  });

  it('ApprovalCriterionSchema keeps an unknown type as it is', () => {
    expect(
      ApprovalCriterionSchema.parse({ type: 'FUTURE_FIELD', condition: 'CONTAINS', value: 'a' }).type,
    ).toBe('FUTURE_FIELD');
  });
});

describe('CreateSessionResponseSchema: the production client takes what is safe', () => {
  it('accepts the spec shapes, and drops fields it does not know', () => {
    expect(valid(CreateSessionResponseSchema, response)).toBe(true);
    expect(CreateSessionResponseSchema.parse({ ...response, somethingNew: 1 })).not.toHaveProperty(
      'somethingNew',
    );
    expect(valid(CreateSessionResponseSchema, { ...response, expiresAt: '2030-01-01T00:00:00Z' })).toBe(true);
  });

  it.each([
    [
      'the vendor SDK’s deep-link order',
      { deepLink: `trustchex://verification-session/${ID}/app-url/idv.example.com` },
    ],
    ['ids that are not UUIDs', { id: 'vs_01HZX', identificationId: 'idn-42' }],
    ['a code of another length', { sessionCode: 'K7M2P9QXZ1' }],
    ['links of other shapes', { qrCodeLink: `${BASE}/qr/${ID}`, sessionPageLink: `${BASE}/s/${ID}` }],
  ])('accepts %s, passed through unchanged', (_name, change) => {
    expect(CreateSessionResponseSchema.parse({ ...response, ...change })).toMatchObject(change);
  });

  it('drops an expiresAt that is not a date (the kit derives one) instead of failing', () => {
    expect(
      CreateSessionResponseSchema.parse({ ...response, expiresAt: 'tomorrow' }).expiresAt,
    ).toBeUndefined();
  });

  it.each([
    ['a javascript: deep link', { deepLink: 'javascript://app-url/%0Aalert(document.cookie)//x' }],
    ['a data: deep link', { deepLink: 'data:text/html,<script>alert(1)</script>' }],
    ['a vbscript: deep link', { deepLink: 'vbscript:msgbox(1)' }],
    ['a file: deep link', { deepLink: 'file:///etc/passwd' }],
    ['a JAVASCRIPT: deep link in capitals', { deepLink: 'JAVASCRIPT:alert(1)' }],
    ['a deep link that is not a URL', { deepLink: 'not a link' }],
    [
      'a QR link that is not http(s)',
      { qrCodeLink: `ftp://idv.example.com/api/v1/verification-sessions/${ID}/qr-code` },
    ],
    ['a session page that is javascript:', { sessionPageLink: 'javascript:alert(1)' }],
    ['an empty id', { id: '' }],
    ['an id with a space or a control character', { identificationId: 'a b\n' }],
    ['a missing identificationId', { identificationId: undefined }],
  ])('refuses %s (it must never reach a browser)', (_name, change) => {
    expect(valid(CreateSessionResponseSchema, { ...response, ...change })).toBe(false);
  });
});

describe('StrictCreateSessionResponseSchema: the spec’s exact shapes (strict: true, the sandbox’s conformance)', () => {
  it('accepts the spec shapes, and fields it does not know', () => {
    expect(valid(StrictCreateSessionResponseSchema, response)).toBe(true);
    expect(valid(StrictCreateSessionResponseSchema, { ...response, somethingNew: 1 })).toBe(true);
  });

  it.each([
    ['a 7-character code', { sessionCode: 'K7M2P9Q' }],
    ['a 9-character code', { sessionCode: 'K7M2P9QXZ' }],
    ['a code with a dash', { sessionCode: 'K7M2-9QX' }],
    ['a deep link without app-url', { deepLink: `idv://${BASE}/verification-session/${ID}` }],
    ['a deep link to another session', { deepLink: `idv://app-url/${BASE}/verification-session/other` }],
    ['the SDK’s deep-link order', { deepLink: `idv://verification-session/${ID}/app-url/idv.example.com` }],
    ['a QR link of another shape', { qrCodeLink: `${BASE}/qr/${ID}` }],
    ['a session page of another shape', { sessionPageLink: `${BASE}/verification-sessions/${ID}` }],
    ['an id that is not a UUID', { id: 'abc' }],
    ['an expiresAt that is not a date', { expiresAt: 'tomorrow' }],
    ['a javascript: deep link', { deepLink: `javascript://app-url/${BASE}/verification-session/${ID}` }],
  ])('rejects %s', (_name, change) => {
    expect(valid(StrictCreateSessionResponseSchema, { ...response, ...change })).toBe(false);
  });
});

describe('IdentificationSchema and statuses', () => {
  it('accepts every known status and any other string; unknown ones are not approved', () => {
    for (const status of [
      'IN_AUTOMATIC_REVIEW',
      'IN_MANUAL_REVIEW',
      'APPROVED',
      'REJECTED',
      'RESUBMISSION_REQUIRED',
    ]) {
      expect(valid(IdentificationSchema, { id: 'x', status })).toBe(true);
      expect(isKnownStatus(status)).toBe(true);
    }
    expect(IdentificationSchema.parse({ id: 'x', status: 'ARCHIVED' }).status).toBe('ARCHIVED');
    expect(isKnownStatus('ARCHIVED')).toBe(false);
    expect(isApproved('ARCHIVED')).toBe(false);
    expect(isApproved('approved')).toBe(false);
    expect(isApproved(undefined)).toBe(false);
    expect(isApproved('APPROVED')).toBe(true);
  });

  it.each([[{ id: 'x' }], [{ status: 'APPROVED' }], [{ id: 'x', status: '' }], [{ id: 'x', status: 1 }]])(
    'rejects %j',
    (value) => {
      expect(valid(IdentificationSchema, value)).toBe(false);
    },
  );
});

describe('VerifyRequestSchema: value shapes (docs/architecture.md, decision 9)', () => {
  it.each([
    ['CONTACT_EMAIL', 'ayse@example.com', true],
    ['CONTACT_EMAIL', 'ayse', false],
    ['CONTACT_PHONE', '+90 555 123 45 67', true],
    ['CONTACT_PHONE', 'call me', false],
    ['DOCUMENT_NUMBER', 'A12 B34567', true],
    ['DOCUMENT_NUMBER', '   ', false],
    ['DOCUMENT_TYPE', 'I', true],
    ['DOCUMENT_TYPE', 'P', true],
    ['DOCUMENT_TYPE', 'p', false],
    ['DOCUMENT_TYPE', 'ID', false],
    ['DOCUMENT_COUNTRY', 'TUR', true],
    ['DOCUMENT_COUNTRY', 'deu', true],
    ['DOCUMENT_COUNTRY', 'TR', false],
    ['DOCUMENT_COUNTRY', 'TR1', false],
    ['DOCUMENT_OWNER_NAME', 'Ayşe', false],
  ])('%s %j -> valid %s', (type, value, ok) => {
    expect(valid(VerifyRequestSchema, { type, value })).toBe(ok);
  });

  it('rejects a missing value and extra fields', () => {
    expect(valid(VerifyRequestSchema, { type: 'DOCUMENT_TYPE' })).toBe(false);
    expect(valid(VerifyRequestSchema, { type: 'DOCUMENT_TYPE', value: 'I', extra: 1 })).toBe(false);
  });

  it('VerifyResponseSchema wants a boolean', () => {
    expect(valid(VerifyResponseSchema, { verified: false })).toBe(true);
    expect(valid(VerifyResponseSchema, { verified: 'false' })).toBe(false);
  });
});

describe('WebhookPayloadSchema', () => {
  it('accepts the payload of decision 13 and event types it does not know', () => {
    const payload = {
      type: 'identification.approved',
      timestamp: '2030-01-01T00:00:00.000Z',
      data: { verificationSessionId: ID, identificationId: response.identificationId, status: 'APPROVED' },
    };
    expect(valid(WebhookPayloadSchema, payload)).toBe(true);
    expect(valid(WebhookPayloadSchema, { ...payload, type: 'identification.archived' })).toBe(true);
    expect(valid(WebhookPayloadSchema, { ...payload, data: {} })).toBe(false);
  });
});
