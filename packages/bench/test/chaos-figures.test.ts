import { describe, expect, it } from 'vitest';
import { figuresOf } from '../src/chaos/figures.js';
import type { RecordedEvent } from '../src/chaos/instances.js';
import type { PersonResult } from '../src/chaos/person.js';

// How the chaos run counts onStatusChange events (issue 40, finding 7): every approved person's
// approval told, as a product that dedupes by `event.id` counts it; one missing fails the run.

const OPTIONS = { people: 3, faults: {}, dropWebhooks: 0.3, drainMs: 0, reviewDelayMs: 0 };

function person(identificationId: string, approvedAt: number, seenAt: number) {
  const result: PersonResult = {
    decision: 'approve',
    identificationId,
    phase: 'approved',
    approvedSeenAt: seenAt,
    gateStatus: 200,
    failures: [],
    polls: [],
    sent: [],
  };
  return { result, approvedAt, sandboxStatus: 'APPROVED', approvalWebhook: 'delivered' };
}

function approval(identificationId: string, id: string, instance = 'app1'): RecordedEvent {
  return {
    id,
    identificationId,
    verificationSessionId: `session-${identificationId}`,
    status: 'APPROVED',
    previousStatus: 'IN_AUTOMATIC_REVIEW',
    phase: 'approved',
    at: new Date(0).toISOString(),
    instance,
    pid: 1,
    recordedAt: 0,
  };
}

const people = [person('a', 1000, 1100), person('b', 2000, 2300), person('c', 3000, 3050)];
const figures = (events: RecordedEvent[]) =>
  figuresOf({ options: OPTIONS, people, events, limitedAddresses: [], windows: [], wallSeconds: 1 });

describe('the chaos run’s count of approval events', () => {
  it('every approval told once: the goal is met', () => {
    const f = figures([approval('a', 'e1'), approval('b', 'e2'), approval('c', 'e3', 'app2')]);
    expect(f.approvedEvents).toMatchObject({ exactlyOnce: 3, duplicated: 0, missed: 0, redelivered: 0 });
    expect(f.goalsMet).toBe(true);
  });

  it('one approval never told: missed, and the goal is not met', () => {
    const f = figures([approval('a', 'e1'), approval('c', 'e3')]);
    expect(f.approvedEvents).toMatchObject({ exactlyOnce: 2, missed: 1 });
    expect(f.goalsMet).toBe(false);
  });

  it('a redelivery under the same id is one event; two ids for one approval are a duplicate', () => {
    const redelivered = figures([
      approval('a', 'e1'),
      approval('a', 'e1', 'app3'),
      approval('b', 'e2'),
      approval('c', 'e3'),
    ]);
    expect(redelivered.approvedEvents).toMatchObject({ exactlyOnce: 3, duplicated: 0, redelivered: 1 });
    const twice = figures([
      approval('a', 'e1'),
      approval('a', 'e9'),
      approval('b', 'e2'),
      approval('c', 'e3'),
    ]);
    expect(twice.approvedEvents).toMatchObject({ exactlyOnce: 2, duplicated: 1 });
    expect(twice.goalsMet).toBe(false);
  });
});
