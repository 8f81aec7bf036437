import type { Scenario } from './scenario.js';

/** The demo's own fields in express-session's SessionData (the kit keeps its binding beside them). */
export interface DemoUser {
  name: string;
  email: string;
}

declare module 'express-session' {
  interface SessionData {
    user?: DemoUser;
    /** The demo account's id: what the kit binds verifications to (accountOf). */
    userId?: string;
    scenario?: Scenario;
  }
}
