import {
  ApprovalCriterionSchema,
  MAX_DURATION_MINUTES,
  PhoneNumberSchema,
  LOCALES as SERVICE_LOCALES,
  type Locale as ServiceLocale,
} from '@verify-kit/client';
import { LOCALES } from '@verify-kit/protocol';
import { z } from 'zod';

/*
 * The criteria playground's settings, kept in the user's session and turned into the kit's
 * sessionOptions when a verification session is created.
 */

export const CONTACT_CHOICES = ['email', 'phone', 'none'] as const;

export const ScenarioSchema = z
  .strictObject({
    /** Which contact detail the session carries: the account's e-mail, a phone number, or none. */
    contact: z.enum(CONTACT_CHOICES),
    /** Validate the contact with a one-time password in the app. */
    sendOTP: z.boolean(),
    phoneNumber: PhoneNumberSchema.optional(),
    /** The person's language: the demo's pages and the widget speak it; see `serviceLocaleOf`. */
    locale: z.enum(LOCALES),
    duration: z
      .int({ error: 'enter the duration as a whole number of minutes' })
      .min(1, 'enter at least 1 minute')
      .max(MAX_DURATION_MINUTES, `enter at most ${MAX_DURATION_MINUTES} minutes (one day)`),
    approvalCriteria: z.array(ApprovalCriterionSchema).max(10, 'use at most 10 criteria'),
  })
  .superRefine((s, ctx) => {
    if (s.contact === 'phone' && s.phoneNumber === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['phoneNumber'],
        message: 'give a phone number to use the phone as contact',
      });
    }
    if (s.contact === 'none' && s.sendOTP) {
      ctx.addIssue({
        code: 'custom',
        path: ['sendOTP'],
        message: 'a one-time password needs a contact detail: choose e-mail or phone, or turn the OTP off',
      });
    }
    for (const [index, criterion] of s.approvalCriteria.entries()) {
      if (criterion.value.trim() === '') {
        ctx.addIssue({
          code: 'custom',
          path: ['approvalCriteria', index, 'value'],
          message: 'enter the value the field is compared with',
        });
      }
    }
  });
export type Scenario = z.infer<typeof ScenarioSchema>;

/** The demo account's e-mail is taken as already confirmed, so one click gets a person through. */
export const DEFAULT_SCENARIO: Scenario = {
  contact: 'email',
  sendOTP: false,
  locale: 'en',
  duration: 30,
  approvalCriteria: [],
};

export interface SessionOptionsFromScenario {
  email?: string;
  phoneNumber?: string;
  sendOTP: boolean;
  locale: ServiceLocale;
  duration: number;
  approvalCriteria?: Scenario['approvalCriteria'];
}

export function sessionOptionsFor(scenario: Scenario, user: { email: string }): SessionOptionsFromScenario {
  const options: SessionOptionsFromScenario = {
    sendOTP: scenario.sendOTP,
    locale: serviceLocaleOf(scenario.locale),
    duration: scenario.duration,
  };
  if (scenario.contact === 'email') options.email = user.email;
  if (scenario.contact === 'phone' && scenario.phoneNumber !== undefined)
    options.phoneNumber = scenario.phoneNumber;
  if (scenario.approvalCriteria.length > 0) options.approvalCriteria = scenario.approvalCriteria;
  return options;
}

/** The service's app speaks English and Turkish (its spec): the others ask it for English. */
export function serviceLocaleOf(locale: Scenario['locale']): ServiceLocale {
  return (SERVICE_LOCALES as readonly string[]).includes(locale) ? (locale as ServiceLocale) : 'en';
}
