/** The demo API's shapes, as the pages see them. */

export interface DemoUser {
  name: string;
  email: string;
}

export interface Criterion {
  type: string;
  condition: string;
  value: string;
  rejectIfNotMet?: boolean;
  accentInsensitive?: boolean;
}

export interface Scenario {
  contact: 'email' | 'phone' | 'none';
  sendOTP: boolean;
  phoneNumber?: string;
  locale: 'en' | 'tr' | 'de' | 'ar';
  duration: number;
  approvalCriteria: Criterion[];
}

export interface Me {
  user: DemoUser | null;
  scenario: Scenario;
  upstream: { kind: 'sandbox' | 'service'; simulator: boolean };
}

export type ActivityEntry =
  | { kind: 'webhook'; at: string; type?: string }
  | { kind: 'status_change'; at: string; status: string; previousStatus?: string; phase: string }
  | { kind: 'status_call'; at: string; method: string; path: string; outcome: number | string }
  | { kind: 'gate'; at: string; path: string; answer: number; source?: 'read' | 'stored' };
