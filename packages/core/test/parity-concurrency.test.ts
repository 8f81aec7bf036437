// Creations that overlap, on both doors (support/doors.ts): a second tab while the first creates,
// two new visitors at the same moment.
import type { SessionResponseBody } from '@verify-kit/protocol';
import { Browser, type BrowserResponse, expectKeyNeverLeaked, until } from '@verify-kit/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { API_KEY, alike, seen, useDoors, WIDGET_OPTIONS } from './support/doors.js';

/** The creation's hold: while `hold` is pending, every creation waits in sessionOptions. */
const creations = { started: 0, hold: undefined as Promise<void> | undefined };
async function heldSessionOptions() {
  creations.started++;
  await creations.hold;
  return { sendOTP: false };
}

function holdCreations(): () => void {
  let release = () => {};
  creations.hold = new Promise((resolve) => {
    release = resolve;
  });
  return () => {
    creations.hold = undefined;
    release();
  };
}

afterAll(() => expectKeyNeverLeaked(API_KEY));

describe('concurrent creations: both doors answer alike', () => {
  const doors = useDoors({ ...WIDGET_OPTIONS, sessionOptions: heldSessionOptions });

  it('409 with Retry-After to a second tab while the first is creating, then the tab resumes the new session', async () => {
    const record = await alike(doors, async (door) => {
      const tab = door.browser();
      await tab.post('/identity/session');
      const other = new Browser(door.url, tab.cookies.clone());
      const release = holdCreations();
      const before = creations.started;
      const first = tab.post<SessionResponseBody>('/identity/session', { restart: true });
      let second: BrowserResponse;
      try {
        await until(() => creations.started > before, 'the first creation is under way');
        second = await other.post('/identity/session', { restart: true });
      } finally {
        release();
      }
      const created = await first;
      const resumed = await new Browser(door.url, tab.cookies.clone()).post<SessionResponseBody>(
        '/identity/session',
      );
      return {
        created: seen(created, door),
        refused: seen(second, door),
        resumed: seen(resumed, door),
        resumedIsTheNewSession: resumed.json.sessionCode === created.json.sessionCode,
      };
    });
    expect(record.created.status).toBe(201);
    expect(record.refused).toMatchObject({
      status: 409,
      headers: { 'retry-after': '1' },
      body: { error: { code: 'SESSION_CREATION_IN_PROGRESS' } },
    });
    expect(record.resumedIsTheNewSession).toBe(true);
  });

  it('two new visitors starting at the same moment each get their own session', async () => {
    const record = await alike(doors, async (door) => {
      const release = holdCreations();
      const before = creations.started;
      let secondDone = false;
      let first: Promise<BrowserResponse<SessionResponseBody>> | undefined;
      let second: Promise<BrowserResponse<SessionResponseBody>> | undefined;
      try {
        first = door.browser().post<SessionResponseBody>('/identity/session');
        await until(() => creations.started > before, 'the first creation is under way');
        second = door
          .browser()
          .post<SessionResponseBody>('/identity/session')
          .finally(() => {
            secondDone = true;
          });
        // The second visitor's creation is under way beside the first, or it was answered at once.
        await until(() => creations.started > before + 1 || secondDone, 'the second visitor is answered');
      } finally {
        release();
      }
      const answers = await Promise.all([first, second]);
      return {
        answers: answers.map((answer) => seen(answer, door)),
        distinct: answers[0].json.sessionCode !== answers[1].json.sessionCode,
      };
    });
    expect(record.answers.map((answer) => answer.status)).toEqual([201, 201]);
    expect(record.distinct).toBe(true);
  });
});
