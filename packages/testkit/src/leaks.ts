import { expect } from 'vitest';
import { transcript } from './browser.js';

/** Every line any test logger wrote, for the "the key never reaches a log" checks. */
export const logLines: string[] = [];

export interface LineLogger {
  debug(message: string, meta?: Record<string, unknown>): void;
  info(message: string, meta?: Record<string, unknown>): void;
  warn(message: string, meta?: Record<string, unknown>): void;
  error(message: string, meta?: Record<string, unknown>): void;
}

/** A logger (console's shape) that writes each line into `into` (default: logLines). */
export function capturingLogger(into: string[] = logLines): LineLogger {
  const write = (level: string) => (message: string, meta?: Record<string, unknown>) => {
    into.push(`${level} ${message} ${meta === undefined ? '' : JSON.stringify(meta)}`);
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

/** The API key appears in no response (status line, header, body) and no log line seen so far. */
export function expectKeyNeverLeaked(apiKey: string): void {
  expect(transcript.length).toBeGreaterThan(0);
  for (const res of transcript) {
    const seen = `${JSON.stringify(res.headers)}\n${res.text}`;
    expect(seen.includes(apiKey), `${res.method} ${res.path} leaked the API key`).toBe(false);
  }
  for (const line of logLines)
    expect(line.includes(apiKey), `log line leaked the API key: ${line}`).toBe(false);
}
