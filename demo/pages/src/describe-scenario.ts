import { fill, plural, t } from './text/index.js';
import type { Scenario } from './types.js';

export function describeScenario(scenario: Scenario): string {
  const text = t();
  const contact =
    scenario.contact === 'email'
      ? text.contactEmail
      : scenario.contact === 'phone'
        ? fill(text.contactPhone, { phone: scenario.phoneNumber ?? '' }).trim()
        : text.contactNone;
  const count = scenario.approvalCriteria.length;
  const criteria = count === 0 ? text.criteriaNone : plural('criteria', count);
  return fill(text.scenario, {
    contact,
    otp: scenario.sendOTP ? text.otpOn : text.otpOff,
    criteria,
    // The service's app speaks English or Turkish: English for the other languages of the pages.
    language: scenario.locale === 'tr' ? text.languageTr : text.languageEn,
    duration: plural('minutes', scenario.duration),
  });
}
