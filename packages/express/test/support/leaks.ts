import { expect } from 'vitest';
import { logLines } from './app.js';
import { transcript } from './browser.js';

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
