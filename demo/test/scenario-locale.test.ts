import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO, ScenarioSchema, sessionOptionsFor } from '../src/scenario.js';

describe("the scenario's language", () => {
  it('is any language of the widget; the service is asked for one it speaks (English for de and ar)', () => {
    const user = { email: 'ada@example.com' };
    const asked = (['en', 'tr', 'de', 'ar'] as const).map((locale) => {
      const scenario = ScenarioSchema.parse({ ...DEFAULT_SCENARIO, locale });
      return [scenario.locale, sessionOptionsFor(scenario, user).locale];
    });
    expect(asked).toEqual([
      ['en', 'en'],
      ['tr', 'tr'],
      ['de', 'en'],
      ['ar', 'en'],
    ]);
  });
});
