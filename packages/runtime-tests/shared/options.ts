import type { VerifyKitOptions } from '@verify-kit/core';

// What every runtime's app is configured with, as its runtime hands it configuration: Bun's and
// Deno's environment, a Worker's bindings. One definition, so every app under test is the same kit.

/** The variables (or a Worker's vars and secrets) each app reads. */
export interface AppEnv {
  /** The service, here the test's proxy in front of the sandbox. */
  IDV_BASE_URL: string;
  IDV_API_KEY: string;
  IDV_WEBHOOK_SECRET: string;
  VERIFY_KIT_SECRET: string;
  /** The kit's maxAgeMs, where a test shortens it (the two-instance suite). */
  MAX_AGE_MS?: string;
}

/** Creations per address and minute in every app under test (`sessionLimit.perIp`). */
export const SESSIONS_PER_ADDRESS = 3;

/** The options set here: none is a function of the request, so core's kit and Hono's both take them. */
type TestedOptions = Pick<
  VerifyKitOptions,
  | 'baseUrl'
  | 'apiKey'
  | 'workflowId'
  | 'webhookSecret'
  | 'secret'
  | 'basePath'
  | 'sessionLimit'
  | 'pollIntervalMs'
  | 'logger'
  | 'maxAgeMs'
>;

/**
 * The kit's options from `env`. Beyond the README's: a small per-address creation limit (so the
 * suite sees a 429, and sees each runtime's client address count apart), re-reads of a waiting
 * long-poll far apart (so only a webhook wakes one within its wait), and `console` as the logger
 * (its debug line tells the suite a long-poll is held: an event to wait on, not a sleep).
 */
export function kitOptions(env: Partial<AppEnv>): TestedOptions {
  const given = (name: keyof AppEnv): string => {
    const value = env[name];
    if (typeof value !== 'string' || value === '') throw new Error(`missing configuration: ${name}`);
    return value;
  };
  return {
    baseUrl: given('IDV_BASE_URL'),
    apiKey: given('IDV_API_KEY'),
    workflowId: 'default',
    webhookSecret: given('IDV_WEBHOOK_SECRET'),
    secret: given('VERIFY_KIT_SECRET'),
    basePath: '/identity',
    sessionLimit: { perClient: 5, perIp: SESSIONS_PER_ADDRESS, windowSeconds: 60 },
    pollIntervalMs: 60_000,
    logger: console,
    ...(env.MAX_AGE_MS === undefined ? {} : { maxAgeMs: Number(env.MAX_AGE_MS) }),
  };
}
