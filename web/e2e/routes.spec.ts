// Every route of the product, as a guest, a user and an admin, at 1366, 650 and 390 px:
// the page renders (no uncaught error, no console error), the sidebar shows exactly the entries
// the spec allows for that role, and a full-page screenshot is saved for review.
//
//   BASE_URL=http://127.0.0.1:8000 USER_EMAIL=… USER_PASSWORD=… ADMIN_EMAIL=… ADMIN_PASSWORD=… \
//     SCREENSHOT_DIR=out/screens npx playwright test e2e/routes.spec.ts
//
// One test per role and width (9); each lists every problem it found when it fails. Each role
// logs in once (beforeAll) and keeps its page for its three widths. The three roles walk at
// once, one Playwright worker each (tests/e2e/test_routes_browser.py passes --workers 3): most
// of a page's time is waiting for the network to settle, which the roles overlap.
import path from 'node:path'
import type { Page } from '@playwright/test'
import { BASE_URL, STEP_TIMEOUT_MS, fail, logIn, newVisitor, overflowOf, screenshotDir, test, watchErrors } from './support'

const SCREENSHOT_DIR = screenshotDir('out/screens')
test.use({ failureScreenshotDir: SCREENSHOT_DIR })

// Every route of shared/spec/product-spec.md §2, plus the two admin paths and the API docs.
const ROUTES = [
  '/',
  '/upload-images',
  '/select-model',
  '/select-background',
  '/generate',
  '/output-image',
  '/login',
  '/signup',
  '/forgot-password',
  '/subscription',
  '/my-images',
  '/plan-details',
  '/success',
  '/failure',
  '/enterprise-plan',
  '/showcase',
  '/help',
  '/contact',
  '/user-setting',
  '/billing-info',
  '/dashboard',
  '/admin-showcase',
  '/digital-models',
  // The public API's documentation (issue 23), for everyone.
  '/docs/api',
  // Checking an image's Content Credentials (issue 37), for everyone.
  '/verify',
]
// Header and sidebar are hidden on these (spec §2, Layout).
const BARE_ROUTES = new Set(['/login', '/signup', '/forgot-password', '/admin-showcase', '/digital-models'])
const WIDTHS = [1366, 650, 390] // 1366: the commonest laptop width

const PUBLIC_ENTRIES = ['nav-create-new-image', 'nav-showcase', 'nav-pricing', 'nav-contact', 'nav-help']
const SIGNED_IN_ENTRIES = ['nav-dashboard', 'nav-my-images', 'nav-credit', 'nav-user-setting']
const ADMIN_ENTRIES = ['nav-admin-digital-models', 'nav-admin-showcase']

type Role = { name: 'guest' | 'user' | 'admin'; email?: string; password?: string }

const ROLES: Role[] = [
  { name: 'guest' },
  { name: 'user', email: process.env.USER_EMAIL, password: process.env.USER_PASSWORD },
  { name: 'admin', email: process.env.ADMIN_EMAIL, password: process.env.ADMIN_PASSWORD },
]

/** The sidebar entries each role must see, and those it must not. */
function expectedEntries(role: Role['name']): { shown: string[]; hidden: string[] } {
  const shown = [...PUBLIC_ENTRIES]
  const hidden: string[] = []
  if (role === 'guest') {
    shown.push('nav-login')
    hidden.push(...SIGNED_IN_ENTRIES, ...ADMIN_ENTRIES, 'nav-logout')
  } else {
    shown.push(...SIGNED_IN_ENTRIES, 'nav-logout')
    hidden.push('nav-login')
    if (role === 'admin') shown.push(...ADMIN_ENTRIES)
    else hidden.push(...ADMIN_ENTRIES)
  }
  return { shown, hidden }
}

// Answers a role is expected to get on some pages (a guest's 401 on an account endpoint, a
// user's 403 on an admin endpoint): the page handles them; Chromium still logs the status.
const EXPECTED_STATUS = /Failed to load resource: the server responded with a status of (401|403)/

/** The sidebar's entries on this page: the rail, or the mobile drawer once opened. */
async function sidebarEntries(page: Page): Promise<Set<string | null>> {
  const menu = page.getByTestId('mobile-menu-button')
  const scope = (await menu.isVisible()) ? '#mobile-menu' : '.rail'
  if (scope === '#mobile-menu') await menu.click()
  await page.locator(`${scope} [data-testid^="nav-"]`).first().waitFor({ timeout: STEP_TIMEOUT_MS })
  // The role is settled once the session's entries replaced the guest's (or the reverse).
  await page.waitForTimeout(150)
  const ids = await page
    .locator(`${scope} [data-testid^="nav-"]`)
    .evaluateAll((els) => els.map((el) => el.getAttribute('data-testid')))
  if (scope === '#mobile-menu') await page.keyboard.press('Escape')
  return new Set(ids)
}

/** Opens the route and adds what is wrong with it to `problems`; `errors` is the page's watchErrors. */
async function checkPage(
  page: Page,
  errors: string[],
  role: Role['name'],
  width: number,
  route: string,
  problems: string[],
): Promise<void> {
  const seen = errors.length
  try {
    await page.goto(`${BASE_URL}${route}`, { waitUntil: 'load' })
    await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => {})
    const landed = new URL(page.url()).pathname
    const bare = BARE_ROUTES.has(landed)
    if (!bare) {
      const entries = await sidebarEntries(page)
      const { shown, hidden } = expectedEntries(role)
      for (const id of shown) if (!entries.has(id)) problems.push(`${role} ${width}px ${route}: missing ${id}`)
      for (const id of hidden) if (entries.has(id)) problems.push(`${role} ${width}px ${route}: shows ${id}`)
    } else if (await page.locator('.rail, .mobile-header').count()) {
      problems.push(`${role} ${width}px ${route}: the app shell is shown on a bare page`)
    }
    const overflow = await overflowOf(page)
    if (overflow > 1) problems.push(`${role} ${width}px ${route}: the page is ${overflow}px wider than the window`)
    for (const found of await wrappingProblems(page)) problems.push(`${role} ${width}px ${route}: ${found}`)
    if (role !== 'guest' && landedOn(page, '/') && (await page.getByText('No account needed').count())) {
      problems.push(`${role} ${width}px ${route}: a signed-in user is told "No account needed"`)
    }
    const name = `${role}-${width}-${route === '/' ? 'home' : route.slice(1).replaceAll('/', '-')}.png`
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, name), fullPage: true })
  } catch (err) {
    problems.push(`${role} ${width}px ${route}: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]}`)
  }
  for (const e of errors.slice(seen)) problems.push(`${role} ${width}px ${route}: console error: ${e.slice(0, 300)}`)
}

function landedOn(page: Page, pathname: string): boolean {
  return new URL(page.url()).pathname === pathname
}

/**
 * Text that must stay on one line and did not, wherever the page has it: the create flow's
 * current step (cut to "Select backgr…" on phones before), a plan card's price and its
 * "per month", and the badges beside a plan's name.
 */
async function wrappingProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = []
    const lines = (el: Element): number => {
      const range = document.createRange()
      range.selectNodeContents(el)
      return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.bottom))).size
    }
    const step = document.querySelector('nav[aria-label="Progress"] [aria-current="step"] span:last-child')
    if (step instanceof HTMLElement && step.scrollWidth > step.clientWidth + 1) {
      found.push(`the current step "${step.textContent}" is cut short`)
    }
    for (const card of document.querySelectorAll('[data-testid="plan-card"]')) {
      const name = card.getAttribute('data-plan-name')
      const amount = card.querySelector('[data-testid="plan-price"]')
      const interval = amount?.nextElementSibling
      if (amount && interval && interval.getBoundingClientRect().top >= amount.getBoundingClientRect().bottom - 2) {
        found.push(`${name}: "${interval.textContent}" wrapped below the price`)
      }
      // Kept on one line, the price must still fit inside the card's padding.
      const inner = card.getBoundingClientRect().right - parseFloat(getComputedStyle(card).paddingRight)
      if (interval && interval.getBoundingClientRect().right > inner + 1) {
        found.push(`${name}: "${interval.textContent}" sticks out of the card by ${Math.round(interval.getBoundingClientRect().right - inner)}px`)
      }
      for (const badge of card.querySelectorAll('header > span, [data-testid="plan-recommended"]')) {
        if (lines(badge) > 1) found.push(`${name}: the badge "${badge.textContent}" wraps`)
      }
    }
    return found
  })
}

// The roles in parallel, each role's widths in order on its one page.
test.describe.configure({ mode: 'parallel' })

for (const role of ROLES) {
  test.describe(role.name, () => {
    test.describe.configure({ mode: 'default' })
    let page: Page
    let errors: string[]

    test.beforeAll(async ({ browser }) => {
      if (role.name !== 'guest' && !(role.email && role.password)) fail(`${role.name}: no credentials given`)
      page = await newVisitor(browser)
      errors = watchErrors(page, { ignore: EXPECTED_STATUS })
      if (role.email && role.password) {
        await logIn(page, role.email, role.password)
        await page.waitForURL((url) => url.pathname !== '/login', { timeout: STEP_TIMEOUT_MS })
      }
    })

    test.afterAll(async () => {
      await page?.context().close()
    })

    for (const width of WIDTHS) {
      test(`${role.name} at ${width}px: ${ROUTES.length} routes`, async () => {
        await page.setViewportSize({ width, height: 900 })
        const problems: string[] = []
        for (const route of ROUTES) await checkPage(page, errors, role.name, width, route, problems)
        if (problems.length) {
          fail(`${role.name} at ${width}px: ${problems.length} problem(s)\n${problems.map((p) => `    ${p}`).join('\n')}`)
        }
      })
    }
  })
}
