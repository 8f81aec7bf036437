import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

// Debian's Chromium (never a downloaded browser); CHROMIUM_PATH overrides.
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(executablePath)) {
  throw new Error(
    `Chromium not found at ${executablePath}. Install Debian's chromium (apt-get install chromium) ` +
      'or set CHROMIUM_PATH to a Chromium binary. Browsers are never downloaded.',
  );
}

export default defineConfig({
  testDir: 'test-browser',
  outputDir: 'test-results',
  fullyParallel: true,
  workers: 2,
  timeout: 20_000,
  expect: { timeout: 5_000 },
  forbidOnly: !!process.env.CI,
  reporter: 'list',
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1024, height: 768 },
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
