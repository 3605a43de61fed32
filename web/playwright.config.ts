// The browser walks of e2e/*.spec.ts: @playwright/test driving Debian's Chromium (CHROMIUM_PATH,
// default /usr/bin/chromium; no Playwright browser is downloaded) against a running app
// (BASE_URL, default http://127.0.0.1:8000) that serves the built web app.
//
//   BASE_URL=… [SCREENSHOT_DIR=…] [PLAYWRIGHT_JSON_OUTPUT_FILE=report.json] \
//     npx playwright test e2e/guest-flow.spec.ts
//
// The walks share one server and its accounts, and the scenarios of a walk follow each other:
// one worker, in file order, no retries. Each spec reads its own env (see its header).
// Reporters: `list` on stdout (with what the walks print: "serviceId: …", "PAID …"), plus
// `json` to PLAYWRIGHT_JSON_OUTPUT_FILE when it is set (tests/support/browser.py reads the
// counts there). Screenshots of failed tests go to SCREENSHOT_DIR/test-results/, next to the
// walks' own screenshots and failure-N.png (default e2e-screenshots/).
import path from 'node:path'
import { defineConfig } from '@playwright/test'
import { BASE_URL, CHROMIUM_ARGS, CHROMIUM_PATH, STEP_TIMEOUT_MS, VIEWPORT } from './e2e/settings'

const JSON_REPORT = process.env.PLAYWRIGHT_JSON_OUTPUT_FILE

export default defineConfig({
  testDir: 'e2e',
  testMatch: '*.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  // A scenario may wait minutes for a generation on a slow machine (the specs of the longest
  // walks raise this); each step still gives up after STEP_TIMEOUT_MS.
  timeout: 5 * 60_000,
  expect: { timeout: STEP_TIMEOUT_MS },
  workers: 1,
  fullyParallel: false,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: JSON_REPORT ? [['list'], ['json', { outputFile: JSON_REPORT }]] : [['list']],
  outputDir: path.join(path.resolve(process.env.SCREENSHOT_DIR || 'e2e-screenshots'), 'test-results'),
  use: {
    browserName: 'chromium',
    headless: true,
    baseURL: BASE_URL,
    viewport: VIEWPORT,
    actionTimeout: STEP_TIMEOUT_MS,
    navigationTimeout: STEP_TIMEOUT_MS,
    screenshot: 'only-on-failure',
    trace: 'off',
    video: 'off',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
})
