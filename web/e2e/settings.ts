// The settings of the browser walks that playwright.config.ts and the specs share: where the app
// runs, which Chromium drives it and how, the window size and how long one step may wait.
//
// Env read here: BASE_URL (default http://127.0.0.1:8000), CHROMIUM_PATH (default
// /usr/bin/chromium).

export const BASE_URL = (process.env.BASE_URL || 'http://127.0.0.1:8000').replace(/\/$/, '')
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium'
/** How long one step may wait for the page (also each page's default Playwright timeout). */
export const STEP_TIMEOUT_MS = 30_000
/** Debian's Chromium, headless, without the sandbox, the GPU and any background traffic. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
export const VIEWPORT = { width: 1280, height: 900 }
