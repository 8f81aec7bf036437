import { existsSync } from 'node:fs';

/** Debian's Chromium, or CHROMIUM_PATH. Never a downloaded browser. */
export function chromiumExecutable(): string {
  const path = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!existsSync(path)) {
    throw new Error(
      `Chromium was not found at ${path}. Install the system's Chromium (Debian: \`apt-get install chromium\`) ` +
        'or set CHROMIUM_PATH to a Chromium or Chrome executable. These tests never download a browser.',
    );
  }
  return path;
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
