// What every browser walk in web/e2e shares: the Chromium launch, the failures a walk reports
// (StepError, step, fail), waits that fail with a readable message, the collection of page
// errors, the scenario runner with its "✓ name" / "✗ name: why" lines, the "N passed, N failed"
// summary and the exit code, and the steps of the create flow more than one walk goes through.
//
// Env read here: BASE_URL (default http://127.0.0.1:8000), CHROMIUM_PATH (default
// /usr/bin/chromium), SCREENSHOT_DIR (each walk gives its own default).
import fs from 'node:fs'
import path from 'node:path'
import { chromium } from 'playwright-core'

export const BASE_URL = (process.env.BASE_URL || 'http://127.0.0.1:8000').replace(/\/$/, '')
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium'
/** How long one step may wait for the page (also each page's default Playwright timeout). */
export const STEP_TIMEOUT_MS = 30_000
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
const VIEWPORT = { width: 1280, height: 900 }

// ---------------------------------------------------------------------------
// Setup

/** The value of a required environment variable; without it the walk stops with exit code 2. */
export function requireEnv(name) {
  const value = process.env[name]
  if (!value) {
    console.error(`${name} is required`)
    process.exit(2)
  }
  return value
}

/** A required environment variable naming a file that must exist (exit code 2 otherwise). */
export function requireFile(name) {
  const file = requireEnv(name)
  if (!fs.existsSync(file)) {
    console.error(`${name}: no such file: ${file}`)
    process.exit(2)
  }
  return file
}

/** SCREENSHOT_DIR, or `fallback`, as an absolute path; created. */
export function screenshotDir(fallback) {
  const dir = path.resolve(process.env.SCREENSHOT_DIR || fallback)
  fs.mkdirSync(dir, { recursive: true })
  return dir
}

/** Headless Debian Chromium (CHROMIUM_PATH); exit code 1 when it is not installed. */
export async function launchChromium() {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    console.error(`FAIL: no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium, or set CHROMIUM_PATH)`)
    process.exit(1)
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
}

/** A new visitor: a fresh browser context (no cookies, no storage) at 1280×900, and its page. */
export async function newVisitor(browser) {
  const context = await browser.newContext({ viewport: VIEWPORT })
  const page = await context.newPage()
  page.setDefaultTimeout(STEP_TIMEOUT_MS)
  return page
}

/**
 * Collects the page's errors into the returned array: uncaught exceptions ("uncaught: …") and
 * console errors not matching `ignore` (a RegExp, for answers the page expects, such as a
 * guest's 401). With `logConsole`, console errors are printed ("[browser] …") instead.
 */
export function watchErrors(page, { ignore = null, logConsole = false } = {}) {
  const errors = []
  page.on('pageerror', (err) => errors.push(`uncaught: ${err.message}`))
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return
    if (logConsole) console.log(`    [browser] ${msg.text()}`)
    else if (!ignore?.test(msg.text())) errors.push(msg.text())
  })
  return errors
}

// ---------------------------------------------------------------------------
// Steps and failures

/** A failed check: reported as its message alone (any other error with its stack). */
export class StepError extends Error {}

/** Announces the next step of a scenario ("  • name"). */
export function step(name) {
  console.log(`  • ${name}`)
}

/** Fails the current scenario with a readable message. */
export function fail(message) {
  throw new StepError(message)
}

/** Waits until the first element of `locator` is visible. */
export async function expectVisible(locator, what, timeout = STEP_TIMEOUT_MS) {
  try {
    await locator.first().waitFor({ state: 'visible', timeout })
  } catch {
    fail(`${what} did not appear within ${Math.round(timeout / 1000)} s`)
  }
}

/** Waits until the first element of `locator` is hidden (or gone). */
export async function expectHidden(locator, what, timeout = STEP_TIMEOUT_MS) {
  try {
    await locator.first().waitFor({ state: 'hidden', timeout })
  } catch {
    fail(`${what} was still shown after ${Math.round(timeout / 1000)} s`)
  }
}

/** Waits until the page is at `pathname` (the query string aside). */
export async function expectUrl(page, pathname, timeout = STEP_TIMEOUT_MS) {
  try {
    await page.waitForURL((u) => new URL(u).pathname === pathname, { timeout })
  } catch {
    fail(`expected to be on ${pathname}, but the page is at ${new URL(page.url()).pathname}`)
  }
}

/** Waits until `predicate(arg)`, run in the page, is truthy; fails with `message` otherwise. */
export async function expectInPage(page, predicate, arg, message, timeout = STEP_TIMEOUT_MS) {
  try {
    await page.waitForFunction(predicate, arg, { timeout })
  } catch {
    fail(message)
  }
}

/** Waits until every image matching the CSS selector has loaded (a broken URL never does). */
export async function expectImagesLoaded(page, selector, what) {
  await expectVisible(page.locator(selector), what)
  await expectInPage(
    page,
    (sel) => {
      const imgs = [...document.querySelectorAll(sel)]
      return imgs.length > 0 && imgs.every((img) => img.complete && img.naturalWidth > 0)
    },
    selector,
    `${what} did not load (broken image URL?)`,
  )
}

/** Saves a full-page screenshot at `file` and prints where. */
export async function screenshot(page, file) {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  await page.screenshot({ path: file, fullPage: true })
  console.log(`    screenshot: ${file}`)
}

// ---------------------------------------------------------------------------
// Results

/** Counts results, printing "✓ line" or "✗ line"; finish() prints "N passed, N failed". */
export function tally() {
  let passed = 0
  let failed = 0
  return {
    pass(line) {
      passed += 1
      console.log(`✓ ${line}`)
    },
    fail(line) {
      failed += 1
      console.log(`✗ ${line}`)
      return failed
    },
    /** Prints the summary; the exit code: 1 when anything failed. */
    finish() {
      console.log(`${passed} passed, ${failed} failed`)
      return failed ? 1 : 0
    },
  }
}

/**
 * Runs the scenarios, `[name, async (walk) => …]`, one after the other in one Chromium, and
 * returns the exit code. A scenario opens visitors with `walk.newPage({ path, ignore, keep })`
 * (a fresh context and page, at BASE_URL + path if given); any page error while it runs (see
 * watchErrors; `ignore` per page, else the runner's) fails it. Contexts are closed after their
 * scenario, or with `keep` after the last one. A failed scenario leaves
 * SCREENSHOT_DIR/failure-N.png of the last page still open.
 *
 * Options: `screenshotDir`, `ignore` (RegExp), `logConsole` (see watchErrors).
 */
export async function runScenarios(scenarios, { screenshotDir: shots, ignore = null, logConsole = false }) {
  const browser = await launchChromium()
  const results = tally()
  const watched = [] // { page, errors }
  const kept = []
  try {
    for (const [name, run] of scenarios) {
      console.log(name)
      const contexts = []
      const seen = watched.map((w) => w.errors.length)
      const walk = {
        browser,
        async newPage({ path: route, ignore: pageIgnore = ignore, keep = false } = {}) {
          const page = await newVisitor(browser)
          ;(keep ? kept : contexts).push(page.context())
          watched.push({ page, errors: watchErrors(page, { ignore: pageIgnore, logConsole }) })
          if (route !== undefined) await page.goto(`${BASE_URL}${route}`, { waitUntil: 'load' })
          return page
        },
      }
      try {
        await run(walk)
        const errors = watched.flatMap((w, i) => w.errors.slice(seen[i] ?? 0))
        if (errors.length) fail(`errors in the page: ${errors.map((e) => e.slice(0, 300)).join(' | ')}`)
        results.pass(name)
      } catch (err) {
        const n = results.fail(`${name}: ${err instanceof StepError ? err.message : err?.stack || String(err)}`)
        const page = watched.map((w) => w.page).findLast((p) => !p.isClosed())
        if (page) await screenshot(page, path.join(shots, `failure-${n}.png`)).catch(() => {})
      } finally {
        for (const context of contexts) await context.close().catch(() => {})
      }
    }
  } finally {
    for (const context of kept) await context.close().catch(() => {})
    await browser.close().catch(() => {})
  }
  return results.finish()
}

// ---------------------------------------------------------------------------
// Steps more than one walk takes

/** Logs in on the /login screen (the caller checks where that leads). */
export async function logIn(page, email, password) {
  await page.goto(`${BASE_URL}/login`, { waitUntil: 'domcontentloaded' })
  await expectVisible(page.getByTestId('login-form'), 'the login form')
  await page.getByTestId('login-email').fill(email)
  await page.getByTestId('login-password').fill(password)
  await page.getByTestId('login-password').press('Enter')
}

/** Logs in through the open login modal and waits for it to close. */
export async function logInThroughModal(page, email, password) {
  const modal = page.getByTestId('login-modal')
  await expectVisible(modal, 'the login modal')
  await modal.getByTestId('login-email').fill(email)
  await modal.getByTestId('login-password').fill(password)
  await modal.getByTestId('login-submit').click()
  await expectHidden(modal, 'the login modal')
}

/** Waits until the button with this test id is shown and enabled. */
export async function expectEnabled(page, testId, what) {
  await expectVisible(page.getByTestId(testId), what)
  await expectInPage(
    page,
    (id) => {
      const b = document.querySelector(`[data-testid="${id}"]`)
      return b && !b.disabled
    },
    testId,
    `${what} stayed disabled`,
  )
}

/** Clicks the flow's Next button once it is enabled. */
export async function clickNext(page) {
  await expectEnabled(page, 'next-button', 'the Next button')
  await page.getByTestId('next-button').click()
}

/** On /upload-images: uploads the photo and waits for its upload to finish without error. */
export async function uploadPhoto(page, file, timeout = 60_000) {
  await page.getByTestId('upload-input').setInputFiles(file)
  const item = page.getByTestId('upload-item').first()
  await expectVisible(item, 'the uploaded file entry')
  // Either the thumbnail (success) or an error message ends the upload.
  try {
    await page.waitForSelector(
      '[data-testid="upload-item"][data-status="done"], [data-testid="upload-item"][data-status="error"]',
      { timeout },
    )
  } catch {
    fail(`the upload did not finish within ${timeout / 1000} s`)
  }
  if ((await item.getAttribute('data-status')) === 'error') {
    fail(`the upload failed: ${(await item.getByTestId('upload-error').textContent())?.trim()}`)
  }
}

/** On /select-background: picks the first photo (not built-in) background; returns its name. */
export async function pickPhotoBackground(page) {
  await expectUrl(page, '/select-background')
  const background = page.locator('[data-testid="background-card"][data-builtin="false"]').first()
  await expectVisible(background, 'a photo (non built-in) background')
  const name = (await background.getAttribute('aria-label')) ?? '?'
  await background.click()
  if ((await background.getAttribute('aria-pressed')) !== 'true') fail('clicking the background did not select it')
  return name
}

/**
 * After Generate: waits up to `timeout` for the output page the generate page opens once the
 * generation has images (or for the reasons it did not), checks the result images load, prints
 * "  serviceId: …" and returns it.
 */
export async function expectResult(page, timeout) {
  try {
    await page.waitForSelector(
      '[data-testid="output-image"], [data-testid="task-error"], [data-testid="insufficient-credits"], [data-testid="generate-error"]',
      { timeout },
    )
  } catch {
    const summary = (await page.getByTestId('job-summary').textContent().catch(() => null)) ?? 'no job shown'
    fail(`no result within ${timeout / 1000} s (${summary.trim()})`)
  }
  for (const id of ['insufficient-credits', 'generate-error', 'task-error']) {
    const alert = page.getByTestId(id).first()
    if ((await page.getByTestId('output-image').count()) === 0 && (await alert.isVisible())) {
      fail(`the generation did not complete: ${(await alert.innerText()).replace(/\s+/g, ' ').trim()}`)
    }
  }
  await expectUrl(page, '/output-image')
  const serviceId = new URL(page.url()).searchParams.get('serviceId')
  if (!serviceId) fail(`the output page has no ?serviceId= (${page.url()})`)
  console.log(`  serviceId: ${serviceId}`)
  await expectImagesLoaded(page, '[data-testid="output-image"]', 'the result image')
  return serviceId
}
