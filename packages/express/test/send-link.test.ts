// Send-link without a free recipient (issue 26, findings 2 and 3), over real HTTP against the real
// sandbox, whose outbox shows every message the service sent and to whom.
import { VerifyKitError } from '@verify-kit/client';
import { capturingLogger, type RedisServer, startRedisServer } from '@verify-kit/testkit';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SendLinkOptions } from '../src/index.js';
import { createVerifyKit, type ErrorResponseBody, type SessionResponseBody } from '../src/index.js';
import { signedInUser } from './support/app.js';
import { SEND_EMAIL, SEND_SMS, useSendLinkApps } from './support/send-link.js';

const API_KEY = 'sk_test_send_link_5c3a';
const { appWith, linksTo, outbox } = useSendLinkApps(API_KEY);

/** The accounts' verified contacts, as the app's database holds them. */
const ACCOUNTS: Record<string, { email?: string; phoneNumber?: string }> = {
  ada: { email: 'ada@example.com' },
  hans: { phoneNumber: '+49 151 2345678' },
  ayse: { phoneNumber: '+90 532 000 00 02' },
};
const contactOfAccount: SendLinkOptions['contactOf'] = (req) => ACCOUNTS[signedInUser(req) ?? ''];

describe('the browser picks the channel, never the address', () => {
  it('the old bodies naming a recipient are 400 INVALID_BODY; the link goes only to the contact contactOf vouches for', async () => {
    const app = await appWith({ channels: ['email'], contactOf: contactOfAccount });
    const ada = await app.signedIn('ada');
    const started = await ada.post<SessionResponseBody>('/identity/session');
    expect(started.status).toBe(201);
    expect(started.json.sendLink).toEqual([{ channel: 'email', to: 'a•••@example.com' }]);

    const victim = 'victim.f2@example.org';
    for (const body of [
      { sendTo: { email: victim } },
      { sendTo: { phoneNumber: '+90 532 999 99 99' } },
      { sendTo: { channel: 'email', email: victim } },
      { sendTo: { channel: 'email', to: victim } },
    ]) {
      const refused = await ada.post<ErrorResponseBody>('/identity/session', body);
      expect(refused.status).toBe(400);
      expect(refused.json.error.code).toBe('INVALID_BODY');
      expect(refused.json.error.message).toContain('"sendTo"?: { "channel": "email" | "sms" }');
    }

    const sent = await ada.post<SessionResponseBody>('/identity/session', SEND_EMAIL);
    expect(sent.status).toBe(201);
    expect(sent.json.sentTo).toBe('a•••@example.com');
    expect(await linksTo(victim)).toEqual([]);
    const links = await linksTo('ada@example.com');
    expect(links).toHaveLength(1);
    expect(links[0]?.text).toContain(sent.json.sessionCode);
    // Only that contact was ever written to.
    const messages = await outbox();
    expect(messages.filter((message) => message.recipient.includes('victim'))).toEqual([]);
  });

  it('anonymous visitors get no send-link by default: nothing offered, a send is 403 SEND_LINK_NO_CONTACT, contactOf not asked', async () => {
    let asked = 0;
    // A careless contactOf that would vouch for anyone: the kit must not even ask it for a visitor.
    const contactOf = () => {
      asked++;
      return { email: 'anon.f2@example.com' };
    };
    const app = await appWith({ channels: ['email'], contactOf });
    const visitor = app.browser();
    const started = await visitor.post<SessionResponseBody>('/identity/session');
    expect(started.json.sendLink).toEqual([]);
    const refused = await visitor.post<ErrorResponseBody>('/identity/session', SEND_EMAIL);
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('SEND_LINK_NO_CONTACT');
    expect(asked).toBe(0);
    expect(await linksTo('anon.f2@example.com')).toEqual([]);
    // The live verification is untouched by the refusal.
    expect((await visitor.post<SessionResponseBody>('/identity/session')).json.sessionCode).toBe(
      started.json.sessionCode,
    );

    // An app that opts in (`anonymous: true`) with its own proof: contactOf still vouches.
    const optedIn = await appWith({ channels: ['email'], contactOf, anonymous: true });
    const sent = await optedIn.browser().post<SessionResponseBody>('/identity/session', SEND_EMAIL);
    expect(sent.status).toBe(201);
    expect(await linksTo('anon.f2@example.com')).toHaveLength(1);
  });

  it('a signed-in person without a contact on that channel: 403 SEND_LINK_NO_CONTACT; an unconfigured channel: 400 SEND_LINK_NOT_ALLOWED', async () => {
    const app = await appWith({ channels: ['email'], contactOf: contactOfAccount });
    const hans = await app.signedIn('hans');
    expect((await hans.post<SessionResponseBody>('/identity/session')).json.sendLink).toEqual([]);
    const none = await hans.post<ErrorResponseBody>('/identity/session', SEND_EMAIL);
    expect([none.status, none.json.error.code]).toEqual([403, 'SEND_LINK_NO_CONTACT']);
    const sms = await hans.post<ErrorResponseBody>('/identity/session', SEND_SMS);
    expect([sms.status, sms.json.error.code]).toEqual([400, 'SEND_LINK_NOT_ALLOWED']);
  });
});

describe('caps on sends (SMS bombing and pumping)', () => {
  it('30 sends at once to one number written 30 ways, from one address: 5 links, the rest 429 TOO_MANY_SENDS', async () => {
    const number = '+905320000001';
    const spellings = (i: number) =>
      [`+90 532 000 00 01`, `+90 (532) 000-00-01`, `+90.532.000.00.01`, `+905320000001`, ` +90 5320000001 `][
        i % 5
      ];
    const contactOf: SendLinkOptions['contactOf'] = (req) => {
      const user = signedInUser(req) ?? '';
      return user.startsWith('bomb') ? { phoneNumber: spellings(Number(user.slice(4))) } : undefined;
    };
    const app = await appWith({ channels: ['sms'], smsCountries: ['+90'], contactOf });
    const browsers = await Promise.all(Array.from({ length: 30 }, (_, i) => app.signedIn(`bomb${i}`)));
    const answers = await Promise.all(
      browsers.map((browser) =>
        browser.post<ErrorResponseBody & SessionResponseBody>('/identity/session', SEND_SMS),
      ),
    );
    const sent = answers.filter((res) => res.status === 201);
    const refused = answers.filter((res) => res.status === 429);
    expect(sent).toHaveLength(5);
    expect(refused).toHaveLength(25);
    expect(sent.map((res) => res.json.sentTo)).toEqual(Array(5).fill('•••••01'));
    expect(refused[0]?.json.error.code).toBe('TOO_MANY_SENDS');
    const retryAfter = Number(refused[0]?.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await linksTo(number)).toHaveLength(5);
  });

  it('one mailbox written three ways is one recipient: e-mail trimmed and lower-cased for the cap', async () => {
    const spellings: Record<string, string> = {
      e1: 'Grace@Example.com',
      e2: ' grace@example.com ',
      e3: 'GRACE@EXAMPLE.COM',
    };
    const contactOf: SendLinkOptions['contactOf'] = (req) => ({ email: spellings[signedInUser(req) ?? ''] });
    const app = await appWith({
      channels: ['email'],
      contactOf,
      perRecipient: { max: 2, windowSeconds: 3600 },
    });
    const statuses = [];
    for (const user of ['e1', 'e2', 'e3']) {
      statuses.push((await (await app.signedIn(user)).post('/identity/session', SEND_EMAIL)).status);
    }
    expect(statuses).toEqual([201, 201, 429]);
  });

  it('the hourly budget of the deployment: beyond perHour every send is 429, whoever asks', async () => {
    const contactOf: SendLinkOptions['contactOf'] = (req) => ({
      email: `${signedInUser(req)}.budget@example.com`,
    });
    const app = await appWith({ channels: ['email'], contactOf, perHour: 3 });
    const answers = [];
    for (const user of ['p1', 'p2', 'p3', 'p4', 'p5']) {
      answers.push(await (await app.signedIn(user)).post<ErrorResponseBody>('/identity/session', SEND_EMAIL));
    }
    expect(answers.map((res) => res.status)).toEqual([201, 201, 201, 429, 429]);
    expect(answers[3]?.json.error.code).toBe('TOO_MANY_SENDS');
    expect(Number(answers[3]?.headers['retry-after'])).toBeLessThanOrEqual(3600);
    expect(await linksTo('p4.budget@example.com')).toEqual([]);
    expect(await linksTo('p3.budget@example.com')).toHaveLength(1);
  });

  it('sends count apart from creations: restarts use no send, spent sends block no restart', async () => {
    const app = await appWith({
      channels: ['email'],
      contactOf: contactOfAccount,
      perRecipient: { max: 2, windowSeconds: 3600 },
    });
    const ada = await app.signedIn('ada');
    for (let i = 0; i < 6; i++) {
      expect((await ada.post('/identity/session', { restart: true })).status).toBe(201);
    }
    const before = (await linksTo('ada@example.com')).length;
    const sends = [];
    for (let i = 0; i < 3; i++)
      sends.push(await ada.post<ErrorResponseBody>('/identity/session', SEND_EMAIL));
    expect(sends.map((res) => res.status)).toEqual([201, 201, 429]);
    expect(sends[2]?.json.error.code).toBe('TOO_MANY_SENDS');
    expect((await linksTo('ada@example.com')).length - before).toBe(2);
    const restarted = await ada.post<SessionResponseBody>('/identity/session', { restart: true });
    expect(restarted.status).toBe(201);
    expect(restarted.json.sentTo).toBeUndefined();
  });
});

describe('SMS only to the countries the app allows', () => {
  it('a number outside smsCountries is not offered, and a send is 403 SEND_LINK_COUNTRY_NOT_ALLOWED with nothing sent', async () => {
    const app = await appWith({ channels: ['sms'], smsCountries: ['+90'], contactOf: contactOfAccount });
    const hans = await app.signedIn('hans');
    expect((await hans.post<SessionResponseBody>('/identity/session')).json.sendLink).toEqual([]);
    const refused = await hans.post<ErrorResponseBody>('/identity/session', SEND_SMS);
    expect([refused.status, refused.json.error.code]).toEqual([403, 'SEND_LINK_COUNTRY_NOT_ALLOWED']);
    expect(await linksTo('+491512345678')).toEqual([]);

    const ayse = await app.signedIn('ayse');
    const started = await ayse.post<SessionResponseBody>('/identity/session');
    expect(started.json.sendLink).toEqual([{ channel: 'sms', to: '•••••02' }]);
    expect((await ayse.post('/identity/session', SEND_SMS)).status).toBe(201);
    const [link] = await linksTo('+905320000002');
    expect(link?.channel).toBe('sms');
  });

  it('createVerifyKit refuses "sms" without smsCountries, and the old list form, naming the new shape', () => {
    const base = { baseUrl: 'http://127.0.0.1:9', apiKey: API_KEY, workflowId: 'default' };
    expect(() =>
      createVerifyKit({ ...base, sendLink: { channels: ['sms'], contactOf: contactOfAccount } }),
    ).toThrow(/sendLink\.smsCountries is required with "sms"/);
    expect(() => createVerifyKit({ ...base, sendLink: ['email'] as unknown as SendLinkOptions })).toThrow(
      /sendLink no longer takes a list of channels .*contactOf/,
    );
    expect(() =>
      createVerifyKit({
        ...base,
        sendLink: { channels: ['sms'], smsCountries: ['90'], contactOf: contactOfAccount },
      }),
    ).toThrow(/sendLink\.smsCountries\.0 must list calling-code prefixes such as "\+90"/);
  });
});

describe('beforeSend and the app’s own contacts', () => {
  it('beforeSend refuses with its own 4xx, or fails closed when it throws anything else; nothing sent, the session kept', async () => {
    const seen: unknown[] = [];
    const app = await appWith({
      channels: ['email'],
      contactOf: contactOfAccount,
      beforeSend: (req, contact) => {
        seen.push(contact);
        if (req.get('x-captcha') !== 'solved') {
          throw new VerifyKitError('CAPTCHA_REQUIRED', 'solve the CAPTCHA first', { status: 403 });
        }
      },
    });
    const ada = await app.signedIn('ada');
    const started = await ada.post<SessionResponseBody>('/identity/session');
    const before = (await linksTo('ada@example.com')).length;
    const refused = await ada.post<ErrorResponseBody>('/identity/session', SEND_EMAIL);
    expect([refused.status, refused.json.error.code]).toEqual([403, 'CAPTCHA_REQUIRED']);
    expect((await linksTo('ada@example.com')).length).toBe(before);
    expect((await ada.post<SessionResponseBody>('/identity/session')).json.sessionCode).toBe(
      started.json.sessionCode,
    );
    const passed = await ada.post('/identity/session', SEND_EMAIL, { 'x-captcha': 'solved' });
    expect(passed.status).toBe(201);
    expect((await linksTo('ada@example.com')).length).toBe(before + 1);
    expect(seen).toEqual([
      { channel: 'email', to: 'ada@example.com' },
      { channel: 'email', to: 'ada@example.com' },
    ]);

    const broken = await appWith({
      channels: ['email'],
      contactOf: contactOfAccount,
      beforeSend: () => {
        throw new Error('the CAPTCHA service is down');
      },
    });
    const failed = await (await broken.signedIn('ada')).post<ErrorResponseBody>(
      '/identity/session',
      SEND_EMAIL,
    );
    expect([failed.status, failed.json.error.code]).toEqual([500, 'SEND_LINK_HOOK_FAILED']);
    expect((await linksTo('ada@example.com')).length).toBe(before + 1);
  });

  it('a contact the service would refuse is a misconfiguration: 500 SEND_LINK_CONTACT_INVALID, said once, never the contact', async () => {
    const lines: string[] = [];
    const contactOf = () => ({ email: 'not-an-address', phoneNumber: '0532 000 00 03' });
    const app = await appWith(
      { channels: ['email', 'sms'], smsCountries: ['+90'], contactOf },
      { logger: capturingLogger(lines) },
    );
    const ada = await app.signedIn('ada');
    expect((await ada.post<SessionResponseBody>('/identity/session')).json.sendLink).toEqual([]);
    for (const body of [SEND_EMAIL, SEND_SMS, SEND_EMAIL, SEND_SMS]) {
      const refused = await ada.post<ErrorResponseBody>('/identity/session', body);
      expect([refused.status, refused.json.error.code]).toEqual([500, 'SEND_LINK_CONTACT_INVALID']);
    }
    const warnings = lines.filter((line) => line.includes('sendLink.contactOf'));
    expect(warnings).toHaveLength(2); // one for the e-mail, one for the phone, however many requests
    expect(warnings.join('\n')).not.toMatch(/not-an-address|0532/);
    expect(await linksTo('not-an-address')).toEqual([]);
  });
});

describe('several instances share the counts through Redis', () => {
  let redis: RedisServer;
  let client: ReturnType<typeof createClient>;
  beforeAll(async () => {
    redis = await startRedisServer();
    client = createClient({ url: redis.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.close();
    await redis?.stop();
  });

  it('the hourly budget is the deployment’s: perHour 3 on two instances sends 3 links, not 6', async () => {
    const contactOf: SendLinkOptions['contactOf'] = (req) => ({
      email: `${signedInUser(req)}.shared@example.com`,
    });
    const sendLink = { channels: ['email'] as const, contactOf, perHour: 3, redis: client };
    const instances = [await appWith(sendLink), await appWith(sendLink)];
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      const person = await instances[i % 2]!.signedIn(`q${i}`);
      statuses.push((await person.post('/identity/session', SEND_EMAIL)).status);
    }
    expect(statuses).toEqual([201, 201, 201, 429, 429, 429]);
    expect(await client.keys('verify-kit:send:budget*')).toHaveLength(1);
    // Recipients are counted under a hash: no address is written to Redis.
    const keys = await client.keys('verify-kit:send:*');
    expect(keys).toHaveLength(14); // the six recipients, the six accounts, the address and the budget
    expect(keys.join(' ')).not.toMatch(/@|shared/);
  });
});
