import {
  CONDITIONS,
  CreateSessionResponseSchema,
  KNOWN_CRITERION_TYPES,
  StrictCreateSessionResponseSchema,
} from '@verify-kit/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, type Harness, harness, UUID } from './helpers.js';

const T0 = Date.parse('2030-01-01T10:00:00.000Z');
let h: Harness;
const now = T0;

beforeAll(async () => {
  h = await harness({ now: () => now, workflows: ['default', 'kyc-strict'] });
});
afterAll(() => h.sandbox.close());

const create = (json: unknown, key?: string | null) =>
  h.request('POST', '/api/v1/verification-sessions', { json, ...(key === undefined ? {} : { key }) });

describe('POST /api/v1/verification-sessions: the answer', () => {
  it('is 201 with the six fields of the spec plus expiresAt, valid for the client schema', async () => {
    const res = await create({ workflowId: 'default', locale: 'en', email: 'ayse@example.com' });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = res.body;
    expect(Object.keys(body).sort()).toEqual(Object.keys(CreateSessionResponseSchema.shape).sort());
    expect(body.id).toMatch(UUID);
    expect(body.identificationId).toMatch(UUID);
    expect(body.identificationId).not.toBe(body.id);
    expect(StrictCreateSessionResponseSchema.safeParse(body).success).toBe(true);
  });

  it('builds the links literally from the base address (spec shapes, docs/architecture.md, decision 11)', async () => {
    const { body } = await create({ workflowId: 'default', locale: 'en', sendOTP: false });
    expect(body.deepLink).toBe(`idv://app-url/${h.url}/verification-session/${body.id}`);
    expect(body.qrCodeLink).toBe(`${h.url}/api/v1/verification-sessions/${body.id}/qr-code`);
    expect(body.sessionPageLink).toBe(`${h.url}/public/verification-sessions/${body.id}`);
  });

  it('uses the baseUrl and appScheme options in the links', async () => {
    const other = await harness({ baseUrl: 'https://idv.example.test/', appScheme: 'myidv' });
    try {
      const s = await other.createSession();
      expect(s.deepLink).toBe(`myidv://app-url/https://idv.example.test/verification-session/${s.id}`);
      expect(s.qrCodeLink).toBe(`https://idv.example.test/api/v1/verification-sessions/${s.id}/qr-code`);
      expect(s.sessionPageLink).toBe(`https://idv.example.test/public/verification-sessions/${s.id}`);
    } finally {
      await other.sandbox.close();
    }
  });

  it('deepLinkStyle sdk: the vendor SDK’s order, with the base as a bare host', async () => {
    const sdk = await harness({
      baseUrl: 'https://idv.example.test/',
      appScheme: 'trustchex',
      deepLinkStyle: 'sdk',
    });
    try {
      const s = await sdk.createSession();
      expect(s.deepLink).toBe(`trustchex://verification-session/${s.id}/app-url/idv.example.test`);
    } finally {
      await sdk.sandbox.close();
    }
  });
});

describe('POST /api/v1/verification-sessions: the session it starts', () => {
  it('gives an 8-character code from the unambiguous alphabet, different per session', async () => {
    const codes = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const { body } = await create({ workflowId: 'default', locale: 'tr', sendOTP: false });
      expect(body.sessionCode).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$/);
      codes.add(body.sessionCode);
    }
    expect(codes.size).toBe(40);
  });

  it('defaults duration to 30 minutes and honours 1 and 1440', async () => {
    const expiry = async (extra: object) =>
      Date.parse(
        (await create({ workflowId: 'default', locale: 'en', sendOTP: false, ...extra })).body.expiresAt,
      );
    expect(await expiry({})).toBe(T0 + 30 * 60_000);
    expect(await expiry({ duration: 1 })).toBe(T0 + 60_000);
    expect(await expiry({ duration: 1440 })).toBe(T0 + 1440 * 60_000);
  });

  it('starts the identification as IN_AUTOMATIC_REVIEW with no document (docs/architecture.md, decision 1)', async () => {
    const { body } = await create({ workflowId: 'default', locale: 'en', phoneNumber: '+90 555 123 45 67' });
    const read = await h.read(body.identificationId);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      id: body.identificationId,
      status: 'IN_AUTOMATIC_REVIEW',
      verificationSessionId: body.id,
      documentSubmitted: false,
      expiresAt: body.expiresAt,
    });
  });

  it('knows the configured workflows and answers 400 UNKNOWN_WORKFLOW for another', async () => {
    expect((await create({ workflowId: 'kyc-strict', locale: 'en', sendOTP: false })).status).toBe(201);
    const res = await create({ workflowId: 'nope', locale: 'en', sendOTP: false });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('UNKNOWN_WORKFLOW');
  });
});

describe('POST /api/v1/verification-sessions: contact rules', () => {
  const cases: [string, object, number][] = [
    ['sendOTP omitted, email only', { email: 'a@example.com' }, 201],
    ['sendOTP omitted, phone only', { phoneNumber: '+905551234567' }, 201],
    ['sendOTP omitted, both', { email: 'a@example.com', phoneNumber: '+905551234567' }, 400],
    ['sendOTP omitted, neither', {}, 400],
    ['sendOTP true, email only', { sendOTP: true, email: 'a@example.com' }, 201],
    ['sendOTP true, phone only', { sendOTP: true, phoneNumber: '05551234567' }, 201],
    ['sendOTP true, both', { sendOTP: true, email: 'a@example.com', phoneNumber: '+905551234567' }, 400],
    ['sendOTP true, neither', { sendOTP: true }, 400],
    ['sendOTP false, neither (contact-less)', { sendOTP: false }, 201],
    ['sendOTP false, email', { sendOTP: false, email: 'a@example.com' }, 201],
    ['sendOTP false, phone', { sendOTP: false, phoneNumber: '+905551234567' }, 201],
    ['sendOTP false, both', { sendOTP: false, email: 'a@example.com', phoneNumber: '+905551234567' }, 201],
  ];
  it.each(cases)('%s -> %i', async (_name, contact, status) => {
    const res = await create({ workflowId: 'default', locale: 'en', ...contact });
    expect(res.status).toBe(status);
    if (status === 400) {
      expect(res.body.error.code).toBe('INVALID_REQUEST');
      expect(res.body.error.details.length).toBeGreaterThan(0);
    }
  });
});

const base = { workflowId: 'default', locale: 'en', sendOTP: false };
const criterion = { type: 'DOCUMENT_OWNER_NAME', condition: 'EQUALS', value: 'ŞEYMA' };

describe('POST /api/v1/verification-sessions: 400 for an invalid body', () => {
  const invalid: [string, unknown, string][] = [
    ['workflowId missing', { locale: 'en', sendOTP: false }, 'workflowId'],
    ['locale missing', { workflowId: 'default', sendOTP: false }, 'locale'],
    ['locale not en/tr', { ...base, locale: 'de' }, 'locale'],
    ['workflowId empty', { ...base, workflowId: '' }, 'workflowId'],
    ['workflowId not a string', { ...base, workflowId: 7 }, 'workflowId'],
    ['sendOTP not a boolean', { ...base, sendOTP: 'false' }, 'sendOTP'],
    ['duration 0', { ...base, duration: 0 }, 'duration'],
    ['duration 1441', { ...base, duration: 1441 }, 'duration'],
    ['duration not an integer', { ...base, duration: 2.5 }, 'duration'],
    ['duration a string', { ...base, duration: '30' }, 'duration'],
    ['email malformed', { ...base, email: 'not-an-email' }, 'email'],
    ['phone malformed', { ...base, phoneNumber: 'call me' }, 'phoneNumber'],
    ['approvalCriteria not an array', { ...base, approvalCriteria: criterion }, 'approvalCriteria'],
    [
      'criterion without type',
      { ...base, approvalCriteria: [{ condition: 'EQUALS', value: 'x' }] },
      'approvalCriteria.0.type',
    ],
    [
      'criterion with an unknown condition',
      { ...base, approvalCriteria: [{ ...criterion, condition: 'LIKE' }] },
      'approvalCriteria.0.condition',
    ],
    [
      'criterion without value',
      { ...base, approvalCriteria: [{ type: 'DOCUMENT_NUMBER', condition: 'EQUALS' }] },
      'approvalCriteria.0.value',
    ],
    [
      'rejectIfNotMet not a boolean',
      { ...base, approvalCriteria: [{ ...criterion, rejectIfNotMet: 'yes' }] },
      'approvalCriteria.0.rejectIfNotMet',
    ],
    [
      'accentInsensitive not a boolean',
      { ...base, approvalCriteria: [{ ...criterion, accentInsensitive: 1 }] },
      'approvalCriteria.0.accentInsensitive',
    ],
    ['an unknown field', { ...base, colour: 'blue' }, ''],
    ['an array', [base], ''],
    ['null', null, ''],
    ['a number', 42, ''],
    ['a string', 'hello', ''],
  ];
  it.each(invalid)('%s', async (_name, body, path) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_REQUEST');
    expect(typeof res.body.error.message).toBe('string');
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('answers 400 INVALID_JSON for malformed JSON and 400 INVALID_REQUEST for no body', async () => {
    const bad = await h.request('POST', '/api/v1/verification-sessions', {
      headers: { 'content-type': 'application/json' },
      body: '{"workflowId": "default",',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_JSON');
    const none = await h.request('POST', '/api/v1/verification-sessions');
    expect(none.status).toBe(400);
    expect(none.body.error.code).toBe('INVALID_REQUEST');
  });
});

describe('POST /api/v1/verification-sessions: the criteria it accepts', () => {
  it('accepts the criteria fields with their defaults and every condition', async () => {
    const approvalCriteria = CONDITIONS.map((condition) => ({
      type: 'DOCUMENT_OWNER_SURNAME',
      condition,
      value: 'IŞIK',
    }));
    expect((await create({ ...base, approvalCriteria })).status).toBe(201);
    expect((await create({ ...base, approvalCriteria: [] })).status).toBe(201);
  });

  it('supports the known criterion types (docs/architecture.md, decision 6), else 400', async () => {
    for (const type of KNOWN_CRITERION_TYPES) {
      expect((await create({ ...base, approvalCriteria: [{ ...criterion, type }] })).status).toBe(201);
    }
    const res = await create({
      ...base,
      approvalCriteria: [criterion, { ...criterion, type: 'DOCUMENT_EXPIRY_DATE' }],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('UNSUPPORTED_CRITERION_TYPE');
    expect(res.body.error.details).toEqual([
      { path: 'approvalCriteria.1.type', message: "unsupported criterion type 'DOCUMENT_EXPIRY_DATE'" },
    ]);
  });
});

describe('POST /api/v1/verification-sessions: content types and size', () => {
  it('answers 415 for a body that is not JSON and 413 beyond 64 KiB', async () => {
    const text = await h.request('POST', '/api/v1/verification-sessions', {
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify(base),
    });
    expect(text.status).toBe(415);
    expect(text.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const big = await create({ ...base, workflowId: 'x'.repeat(70 * 1024) });
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('accepts application/json with a charset and +json types', async () => {
    for (const type of ['application/json; charset=utf-8', 'application/vnd.api+json']) {
      const res = await h.request('POST', '/api/v1/verification-sessions', {
        headers: { 'content-type': type },
        body: JSON.stringify(base),
      });
      expect(res.status).toBe(201);
    }
  });
});

describe('POST /api/v1/verification-sessions: the API key (401)', () => {
  const body = { workflowId: 'default', locale: 'en', sendOTP: false };
  it.each([
    ['missing', null],
    ['wrong', 'sk_wrong'],
    ['empty', ''],
    ['the right key with a suffix', `${API_KEY}x`],
  ])('%s key -> 401 UNAUTHORIZED, key never echoed', async (_name, key) => {
    const res = await create(body, key);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
    expect(res.text).not.toContain(API_KEY);
  });

  it('checks the key before the body', async () => {
    const res = await h.request('POST', '/api/v1/verification-sessions', {
      key: null,
      headers: { 'content-type': 'application/json' },
      body: '{oops',
    });
    expect(res.status).toBe(401);
  });

  it('405 for another method on the collection', async () => {
    const res = await h.request('GET', '/api/v1/verification-sessions');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(res.body.error.code).toBe('METHOD_NOT_ALLOWED');
  });
});
