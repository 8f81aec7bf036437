import { describe, expect, it } from 'vitest';
import { phaseOf } from '../src/status/phase.js';

const EXPIRES = '2030-01-01T12:00:00.000Z';
const BEFORE = Date.parse(EXPIRES) - 1;
const AFTER = Date.parse(EXPIRES);

// status, document submitted, session expired -> phase
const TABLE: [string, boolean, boolean, string][] = [
  ['APPROVED', true, false, 'approved'],
  ['APPROVED', true, true, 'approved'],
  ['REJECTED', true, false, 'rejected'],
  ['REJECTED', true, true, 'rejected'],
  ['RESUBMISSION_REQUIRED', true, false, 'resubmission_required'],
  ['RESUBMISSION_REQUIRED', true, true, 'expired'],
  ['IN_MANUAL_REVIEW', true, false, 'in_manual_review'],
  ['IN_MANUAL_REVIEW', true, true, 'in_manual_review'],
  ['IN_AUTOMATIC_REVIEW', false, false, 'awaiting_user'],
  ['IN_AUTOMATIC_REVIEW', false, true, 'expired'],
  ['IN_AUTOMATIC_REVIEW', true, false, 'in_review'],
  ['IN_AUTOMATIC_REVIEW', true, true, 'in_review'],
  ['ON_HOLD', false, false, 'in_review'],
  ['ON_HOLD', true, false, 'in_review'],
  ['ON_HOLD', false, true, 'expired'],
  ['ON_HOLD', true, true, 'in_review'],
  ['approved', true, false, 'in_review'],
];

describe('phaseOf', () => {
  it.each(TABLE)('%s, submitted %s, expired %s -> %s', (status, documentSubmitted, expired, phase) => {
    expect(phaseOf({ status, documentSubmitted, expiresAt: EXPIRES, now: expired ? AFTER : BEFORE })).toBe(
      phase,
    );
  });

  it.each([
    ['IN_AUTOMATIC_REVIEW', false, 'expired'],
    ['RESUBMISSION_REQUIRED', true, 'expired'],
    ['IN_AUTOMATIC_REVIEW', true, 'in_review'],
    ['APPROVED', true, 'approved'],
  ])(
    '%s, submitted %s, session cancelled by the service before expiresAt -> %s',
    (status, documentSubmitted, phase) => {
      expect(
        phaseOf({ status, documentSubmitted, expiresAt: EXPIRES, now: BEFORE, sessionEnded: true }),
      ).toBe(phase);
    },
  );

  it('never calls an unparseable expiry expired', () => {
    expect(
      phaseOf({ status: 'IN_AUTOMATIC_REVIEW', documentSubmitted: false, expiresAt: 'soon', now: AFTER }),
    ).toBe('awaiting_user');
  });
});
