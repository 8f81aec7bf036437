import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumExecutable } from './support/chromium.js';

// The demo (with its embedded sandbox) is started once by the global setup on random ports;
// each test has its own browser context, so its own signed-in person and verification session.
export default defineConfig({
  testDir: './tests',
  outputDir: './artifacts/test-results',
  globalSetup: './support/global-setup.ts',
  workers: 2,
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: chromiumExecutable(), args: CHROMIUM_ARGS },
    viewport: { width: 1280, height: 900 },
    screenshot: 'only-on-failure',
    // A failed test keeps its trace (actions, console, network) without DOM snapshots or the
    // screencast: recording those for every test took a quarter of the suite's CPU (120 s -> 95 s
    // without them, on two cores); screenshot above keeps the last frame of a failure.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false },
  },
});
