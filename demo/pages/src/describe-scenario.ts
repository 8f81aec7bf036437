import type { Scenario } from './types.js';

export function describeScenario(scenario: Scenario): string {
  const contact =
    scenario.contact === 'email'
      ? 'the account’s e-mail'
      : scenario.contact === 'phone'
        ? `the phone ${scenario.phoneNumber ?? ''}`.trim()
        : 'no contact detail (contact-less)';
  const otp = scenario.sendOTP ? 'validated with a one-time password' : 'no one-time password';
  const criteria =
    scenario.approvalCriteria.length === 0
      ? 'no approval criteria'
      : `${scenario.approvalCriteria.length} approval criteri${scenario.approvalCriteria.length === 1 ? 'on' : 'a'}`;
  return `Scenario: ${contact}, ${otp}, ${criteria}, app in ${scenario.locale === 'tr' ? 'Turkish' : 'English'}, ${scenario.duration} minutes.`;
}
