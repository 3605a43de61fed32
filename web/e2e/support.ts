// What every browser walk in web/e2e shares: the `walk` fixture (fresh visitors, each in its own
// browser context, whose page errors fail the test), failures with a readable message (fail,
// and waits that fail saying what did not happen), screenshots, and the steps of the create flow
// more than one walk goes through.
//
// Env read here: BASE_URL (default http://127.0.0.1:8000, see settings.ts), SCREENSHOT_DIR (each
// walk gives its own default, see screenshotDir).
import fs from 'node:fs'
import path from 'node:path'
import { test as base, expect, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test'
import { BASE_URL, STEP_TIMEOUT_MS, VIEWPORT } from './settings'

export { BASE_URL, STEP_TIMEOUT_MS, expect }

// ---------------------------------------------------------------------------
// Setup

/** The value of a required environment variable; without it the walk's spec does not load. */
export function requireEnv(name: string): string {
  const value = process.env[name]
  if (!value) throw new Error(`${name} is required`)
  return value
}

/** A required environment variable naming a file that must exist. */
export function requireFile(name: string): string {
  const file = requireEnv(name)
  if (!fs.existsSync(file)) throw new Error(`${name}: no such file: ${file}`)
  return file
}

/** SCREENSHOT_DIR, or `fallback`, as an absolute path; created. */
export function screenshotDir(fallback: string): string {
  const dir = path.resolve(process.env.SCREENSHOT_DIR || fallback)
  fs.mkdirSync(dir, { recursive: true })
  return dir
}

/** A new visitor: a fresh browser context (no cookies, no storage) at 1280×900, and its page. */
export async function newVisitor(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: VIEWPORT })
  const page = await context.newPage()
  page.setDefaultTimeout(STEP_TIMEOUT_MS)
  return page
}

export type WatchOptions = { ignore?: RegExp | null; logConsole?: boolean }

/**
 * Collects the page's errors into the returned array: uncaught exceptions ("uncaught: …") and
 * console errors not matching `ignore` (a RegExp, for answers the page expects, such as a
 * guest's 401). With `logConsole`, console errors are printed ("[browser] …") instead.
 */
export function watchErrors(page: Page, { ignore = null, logConsole = false }: WatchOptions = {}): string[] {
  const errors: string[] = []
  page.on('pageerror', (err) => errors.push(`uncaught: ${err.message}`))
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return
    if (logConsole) console.log(`    [browser] ${msg.text()}`)
    else if (!ignore?.test(msg.text())) errors.push(msg.text())
  })
  return errors
}

// ---------------------------------------------------------------------------
// The walk fixture

export type NewPageOptions = {
  /** Opened at BASE_URL + path when given. */
  path?: string
  /** Console errors to ignore on this page; the spec's `consoleIgnore` when left out. */
  ignore?: RegExp | null
  /** Keep the context open after the test (closed with the worker), for a later test. */
  keep?: boolean
}

export type Walk = {
  browser: Browser
  /** A new visitor (a fresh context and page), watched for page errors. */
  newPage(options?: NewPageOptions): Promise<Page>
}

type Watched = { page: Page; errors: string[] }
type WalkPages = { watched: Watched[]; kept: BrowserContext[] }

type WalkOptions = {
  /** Console errors a spec's pages expect (see watchErrors); null: every one fails the test. */
  consoleIgnore: RegExp | null
  /** Print the pages' console errors instead of failing on them (see watchErrors). */
  logConsole: boolean
  /** Where a failed test leaves failure-N.png of the last page still open. */
  failureScreenshotDir: string
}

/**
 * `test` with the `walk` fixture: `walk.newPage({ path, ignore, keep })` opens a new visitor.
 * Any page error while the test runs (see watchErrors; on pages kept from an earlier test too)
 * fails it with "errors in the page: …". The test's contexts are closed after it, those opened
 * with `keep` when the worker ends. A failed test leaves failure-N.png of the last page still
 * open in `failureScreenshotDir` (set with test.use, like `consoleIgnore` and `logConsole`).
 */
export const test = base.extend<WalkOptions & { walk: Walk }, { walkPages: WalkPages }>({
  consoleIgnore: [null, { option: true }],
  logConsole: [false, { option: true }],
  failureScreenshotDir: ['e2e-screenshots', { option: true }],
  walkPages: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const pages: WalkPages = { watched: [], kept: [] }
      await use(pages)
      for (const context of pages.kept) await context.close().catch(() => {})
    },
    { scope: 'worker' },
  ],
  walk: async ({ browser, walkPages, consoleIgnore, logConsole, failureScreenshotDir }, use, testInfo) => {
    const contexts: BrowserContext[] = []
    const seen = walkPages.watched.map((w) => w.errors.length)
    const walk: Walk = {
      browser,
      async newPage({ path: route, ignore, keep = false } = {}) {
        const page = await newVisitor(browser)
        ;(keep ? walkPages.kept : contexts).push(page.context())
        const errors = watchErrors(page, { ignore: ignore === undefined ? consoleIgnore : ignore, logConsole })
        walkPages.watched.push({ page, errors })
        if (route !== undefined) await page.goto(`${BASE_URL}${route}`, { waitUntil: 'load' })
        return page
      },
    }
    await use(walk)

    let pageErrors: Error | null = null
    if (testInfo.status === testInfo.expectedStatus) {
      const errors = walkPages.watched.flatMap((w, i) => w.errors.slice(seen[i] ?? 0))
      if (errors.length) pageErrors = new Error(`errors in the page: ${errors.map((e) => e.slice(0, 300)).join(' | ')}`)
    }
    if (pageErrors || testInfo.status !== testInfo.expectedStatus) {
      const page = walkPages.watched.map((w) => w.page).findLast((p) => !p.isClosed())
      if (page) {
        const dir = path.resolve(failureScreenshotDir)
        const taken = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => /^failure-\d+\.png$/.test(f)).length : 0
        await screenshot(page, path.join(dir, `failure-${taken + 1}.png`)).catch(() => {})
      }
    }
    for (const context of contexts) await context.close().catch(() => {})
    if (pageErrors) throw pageErrors
  },
})

// ---------------------------------------------------------------------------
// Steps and failures

/** Announces the next step of a scenario ("  • name"). */
export function step(name: string): void {
  console.log(`  • ${name}`)
}

/** Fails the current test with a readable message. */
export function fail(message: string): never {
  throw new Error(message)
}

/** Waits until the first element of `locator` is visible. */
export async function expectVisible(locator: Locator, what: string, timeout = STEP_TIMEOUT_MS): Promise<void> {
  await expect(locator.first(), `${what} did not appear within ${Math.round(timeout / 1000)} s`).toBeVisible({
    timeout,
  })
}

/** Waits until the first element of `locator` is hidden (or gone). */
export async function expectHidden(locator: Locator, what: string, timeout = STEP_TIMEOUT_MS): Promise<void> {
  await expect(locator.first(), `${what} was still shown after ${Math.round(timeout / 1000)} s`).toBeHidden({
    timeout,
  })
}

/** Waits until the page is at `pathname` (the query string aside). */
export async function expectUrl(page: Page, pathname: string, timeout = STEP_TIMEOUT_MS): Promise<void> {
  try {
    await page.waitForURL((u) => u.pathname === pathname, { timeout })
  } catch {
    fail(`expected to be on ${pathname}, but the page is at ${new URL(page.url()).pathname}`)
  }
}

/** Waits until `predicate(arg)`, run in the page, is truthy; fails with `message` otherwise. */
export async function expectInPage<Arg>(
  page: Page,
  predicate: (arg: Arg) => unknown,
  arg: Arg,
  message: string,
  timeout = STEP_TIMEOUT_MS,
): Promise<void> {
  try {
    // Arg is serialised into the page as it is (a string, a number or null here).
    await page.waitForFunction(predicate as (arg: unknown) => unknown, arg as unknown, { timeout })
  } catch {
    fail(message)
  }
}

/** Waits until every image matching the CSS selector has loaded (a broken URL never does). */
export async function expectImagesLoaded(page: Page, selector: string, what: string): Promise<void> {
  await expectVisible(page.locator(selector), what)
  await expectInPage(
    page,
    (sel) => {
      const imgs = [...document.querySelectorAll<HTMLImageElement>(sel)]
      return imgs.length > 0 && imgs.every((img) => img.complete && img.naturalWidth > 0)
    },
    selector,
    `${what} did not load (broken image URL?)`,
  )
}

/** Saves a full-page screenshot at `file` and prints where. */
export async function screenshot(page: Page, file: string): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  await page.screenshot({ path: file, fullPage: true })
  console.log(`    screenshot: ${file}`)
}

/** How much wider than the window the page is, in px. */
export function overflowOf(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
}

// ---------------------------------------------------------------------------
// Steps more than one walk takes

/** Logs in on the /login screen (the caller checks where that leads). */
export async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${BASE_URL}/login`, { waitUntil: 'domcontentloaded' })
  await expectVisible(page.getByTestId('login-form'), 'the login form')
  await page.getByTestId('login-email').fill(email)
  await page.getByTestId('login-password').fill(password)
  await page.getByTestId('login-password').press('Enter')
}

/** Logs in through the open login modal and waits for it to close. */
export async function logInThroughModal(page: Page, email: string, password: string): Promise<void> {
  const modal = page.getByTestId('login-modal')
  await expectVisible(modal, 'the login modal')
  await modal.getByTestId('login-email').fill(email)
  await modal.getByTestId('login-password').fill(password)
  await modal.getByTestId('login-submit').click()
  await expectHidden(modal, 'the login modal')
}

/** Waits until the button with this test id is shown and enabled. */
export async function expectEnabled(page: Page, testId: string, what: string): Promise<void> {
  await expectVisible(page.getByTestId(testId), what)
  await expectInPage(
    page,
    (id) => {
      const b = document.querySelector<HTMLButtonElement>(`[data-testid="${id}"]`)
      return b && !b.disabled
    },
    testId,
    `${what} stayed disabled`,
  )
}

/** Clicks the flow's Next button once it is enabled. */
export async function clickNext(page: Page): Promise<void> {
  await expectEnabled(page, 'next-button', 'the Next button')
  await page.getByTestId('next-button').click()
}

/** On /upload-images: uploads the photo and waits for its upload to finish without error. */
export async function uploadPhoto(page: Page, file: string, timeout = 60_000): Promise<void> {
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
export async function pickPhotoBackground(page: Page): Promise<string> {
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
export async function expectResult(page: Page, timeout: number): Promise<string> {
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

/** The sidebar's Credit total, once it is a number. */
export async function creditTotal(page: Page): Promise<number> {
  const badge = page.locator('.rail [data-testid="credit-total"]')
  await expectVisible(badge, "the sidebar's Credit")
  await expectInPage(
    page,
    () => /^\d+(\.\d+)?$/.test(document.querySelector('.rail [data-testid="credit-total"]')?.textContent?.trim() ?? ''),
    null,
    "the sidebar's Credit never showed a number",
  )
  return Number((await badge.textContent())?.trim())
}

/** Waits (30 s) for the sidebar's Credit to show `expected`; fails saying what it shows. */
export async function expectCreditTotal(page: Page, expected: number, what: string): Promise<void> {
  try {
    await page.waitForFunction(
      (want) => document.querySelector('.rail [data-testid="credit-total"]')?.textContent?.trim() === String(want),
      expected,
      { timeout: 30_000 },
    )
  } catch {
    const shown = await page.locator('.rail [data-testid="credit-total"]').textContent().catch(() => null)
    fail(`${what}: the sidebar's Credit shows ${shown}, not ${expected}`)
  }
}
