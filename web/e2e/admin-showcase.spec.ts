// Browser test of /admin-showcase: a guest is asked to log in, a user sees "Admins only", and an
// admin curates a shared output into the showcase, finds a user's generation by email and by
// service id, sees the server refuse a broken file, and attaches an edited image ("Edited").
//
//   BASE_URL=… ADMIN_EMAIL=… USER_EMAIL=… PASSWORD=… OWNER_EMAIL=… SERVICE_ID=… \
//     SHARED_TASK_ID=… UNSHARED_TASK_ID=… EDIT_IMAGE=/path/edit.jpg BAD_FILE=/path/broken.jpg \
//     SCREENSHOT_DIR=out/admin-showcase npx playwright test e2e/admin-showcase.spec.ts
//
// The caller prepares the data (tests/e2e/test_admin_browser.py): the owner's generation with
// one output shared and one not, and the admin role. Screenshots at 1280, 650 and 390 px are
// saved in SCREENSHOT_DIR. Four tests, in order: the last one needs the edit the third attaches.
import path from 'node:path'
import type { Page } from '@playwright/test'
import {
  BASE_URL,
  STEP_TIMEOUT_MS,
  expectInPage,
  expectVisible,
  fail,
  logIn,
  logInThroughModal,
  overflowOf,
  requireEnv,
  screenshotDir,
  step,
  test,
  type Walk,
} from './support'

const SCREENSHOT_DIR = screenshotDir('out/admin-showcase')
const ADMIN_EMAIL = requireEnv('ADMIN_EMAIL')
const USER_EMAIL = requireEnv('USER_EMAIL')
const PASSWORD = requireEnv('PASSWORD')
const OWNER_EMAIL = requireEnv('OWNER_EMAIL')
const SERVICE_ID = requireEnv('SERVICE_ID')
const SHARED_TASK_ID = requireEnv('SHARED_TASK_ID')
const UNSHARED_TASK_ID = requireEnv('UNSHARED_TASK_ID')
const EDIT_IMAGE = requireEnv('EDIT_IMAGE')
const BAD_FILE = requireEnv('BAD_FILE')

// A user's 403 on the admin API is the expected answer; Chromium still logs the status.
const EXPECTED_STATUS = /Failed to load resource: the server responded with a status of (401|403|422)/

test.use({ failureScreenshotDir: SCREENSHOT_DIR, consoleIgnore: EXPECTED_STATUS })

async function expectBare(page: Page): Promise<void> {
  if (await page.locator('.rail, .mobile-header, .sidebar').count()) fail('the app shell is shown on /admin-showcase')
  const back = page.getByTestId('admin-back')
  if ((await back.getAttribute('href')) !== '/') fail('the page header has no link back to "/"')
}

/** A new visitor on /admin-showcase. */
function openPage(walk: Walk): Promise<Page> {
  return walk.newPage({ path: '/admin-showcase' })
}

/** Logs in through the page's own prompt (the login modal), staying on /admin-showcase. */
async function logInFromPrompt(page: Page, email: string): Promise<void> {
  await expectVisible(page.getByTestId('admin-login-prompt'), 'the log-in prompt')
  await page.getByTestId('admin-login').click()
  await logInThroughModal(page, email, PASSWORD)
  if (new URL(page.url()).pathname !== '/admin-showcase') fail(`login left the page for ${page.url()}`)
}

async function screenshots(page: Page, name: string): Promise<void> {
  for (const width of [1280, 650, 390]) {
    await page.setViewportSize({ width, height: 900 })
    await page.waitForTimeout(150)
    const overflow = await overflowOf(page)
    if (overflow > 1) fail(`at ${width}px the page is ${overflow}px wider than the window`)
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${width}.png`), fullPage: true })
  }
  await page.setViewportSize({ width: 1280, height: 900 })
}

async function lookUp(page: Page, text: string): Promise<void> {
  const input = page.getByTestId('lookup-input')
  await input.fill(text)
  await input.press('Enter')
}

test('a guest is asked to log in, without the app shell', async ({ walk }) => {
  const page = await openPage(walk)
  step('the log-in prompt')
  await expectVisible(page.getByTestId('admin-login-prompt'), 'the log-in prompt')
  await expectBare(page)
  await screenshots(page, 'admin-showcase-guest')
})

test('a user who is not an admin sees "Admins only"', async ({ walk }) => {
  const page = await openPage(walk)
  step('log in as a plain user from the prompt')
  await logInFromPrompt(page, USER_EMAIL)
  step('"Admins only"')
  await expectVisible(page.getByTestId('admin-only'), '"Admins only"')
  if (await page.getByTestId('lookup-input').count()) fail('a non-admin sees the lookup')
  await screenshots(page, 'admin-showcase-user')
})

test('an admin curates a shared output and attaches an edited image', async ({ walk }) => {
  const page = await openPage(walk)
  step('log in as the admin from the prompt')
  await logInFromPrompt(page, ADMIN_EMAIL)
  await expectBare(page)

  step('the shared output is listed, the unshared one is not')
  const card = page.getByTestId(`candidate-${SHARED_TASK_ID}`)
  await expectVisible(card, 'the shared output')
  if (await page.getByTestId(`candidate-${UNSHARED_TASK_ID}`).count()) fail('an unshared output is listed')
  const images = await card.locator('img').evaluateAll((els: HTMLImageElement[]) => els.map((img) => img.naturalWidth))
  if (images.length !== 2 || images.some((w) => !w)) fail(`the before/after thumbnails did not load (${images})`)

  step('curate it into the showcase')
  const toggle = card.getByRole('switch')
  if ((await toggle.getAttribute('aria-checked')) !== 'false') fail('the shared output starts in the showcase')
  await toggle.click()
  await expectInPage(
    page,
    (id) =>
      document.querySelector(`[data-testid="candidate-${id}"] [role="switch"]`)?.getAttribute('aria-checked') ===
      'true',
    SHARED_TASK_ID,
    'the curate switch did not turn on',
  )
  await expectVisible(page.getByTestId('toast').filter({ hasText: 'Added to the showcase.' }), 'the curate toast')

  step('the lookup refuses junk, then finds the owner by email')
  await lookUp(page, 'not/an id')
  await expectVisible(page.getByTestId('lookup-error'), 'the lookup error')
  await lookUp(page, OWNER_EMAIL)
  const generation = page.getByTestId(`generation-${SERVICE_ID}`)
  await expectVisible(generation, "the owner's generation")
  const temporal = await generation.getByTestId('temporal-link').getAttribute('href')
  if (!temporal?.endsWith(`/workflows/${SERVICE_ID}`)) fail(`"Open in Temporal" points at ${temporal}`)

  step("a broken file: the server's refusal is shown")
  const row = generation.getByTestId(`admin-task-${SHARED_TASK_ID}`)
  await row.getByTestId('attach-edit-input').setInputFiles(BAD_FILE)
  await expectVisible(row.getByTestId('attach-edit-error'), 'the refusal')
  const refusal = (await row.getByTestId('attach-edit-error').textContent())?.trim()
  if (!refusal?.startsWith('The edited image')) fail(`the refusal is not the server's message: "${refusal}"`)

  step('attach the edited image: "Edited"')
  await row.getByTestId('attach-edit-input').setInputFiles(EDIT_IMAGE)
  await expectVisible(row.getByTestId('admin-task-edited'), 'the edited image')
  const badge = (await row.getByTestId('admin-task-edited').textContent())?.trim()
  if (badge !== 'Edited') fail(`the edited image is labelled "${badge}"`)
  if (await row.getByTestId('attach-edit-error').count()) fail('the old refusal is still shown')

  step('the same generation by its service id')
  await lookUp(page, SERVICE_ID)
  await expectVisible(page.getByTestId(`generation-${SERVICE_ID}`).getByTestId('admin-task-edited'), 'the edit')
  if ((await page.locator('[data-testid^="generation-"]').count()) !== 1) fail('a service id found several')
  await screenshots(page, 'admin-showcase-admin')
})

test('the owner sees the edited image on the output page and in My Images', async ({ walk }) => {
  // Every console error counts here: the owner's pages expect no refusal.
  const page = await walk.newPage({ ignore: null })
  step('the owner logs in')
  await logIn(page, OWNER_EMAIL, PASSWORD)
  await page.waitForURL((url) => url.pathname !== '/login', { timeout: STEP_TIMEOUT_MS })

  step('the output page shows the edited image beside the generated one')
  await page.goto(`${BASE_URL}/output-image?serviceId=${SERVICE_ID}`, { waitUntil: 'domcontentloaded' })
  const edited = page.locator(`[data-testid="edited-item"][data-task-id="${SHARED_TASK_ID}"]`)
  await expectVisible(edited, 'the edited image on the output page')
  const loaded = await edited.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)
  if (!loaded) fail('the edited image did not load on the output page')

  step('My Images marks it "Edited"')
  await page.goto(`${BASE_URL}/my-images`, { waitUntil: 'domcontentloaded' })
  await expectVisible(page.getByTestId('edited-badge'), 'the "Edited" badge in My Images')
})

