// Browser test of My Images one image at a time (issue 33 items 7, 10 and 12's toast), at 1366
// and at 390 px:
//
//   BASE_URL=http://127.0.0.1:8000 USER_EMAIL=a@example.com USER_PASSWORD=secret \
//   SERVICE_IDS=id1366,id390 npx playwright test e2e/library-images.spec.ts
//
// The account must exist and own one generation per width (SERVICE_IDS, in the order of the
// widths) made through the public API from two photos: the first finished, the second refused
// by the analysis (tests/e2e/test_library_images_browser.py makes them). At each width, in a
// fresh browser:
//  1. the login form sent blank toasts "Please enter all the value"; sent again with a wrong
//     password, the server's error replaces that toast instead of stacking under it;
//  2. My Images shows the failed image's input (the public API made it), and no broken image;
//  3. the trash icon on the failed image asks to delete that image only; deleting the whole
//     generation is a second, named step (opened, then left with Back); confirmed, the failed
//     image goes and its sibling stays.
// Prints "KEPT <taskId>" and "DELETED <taskId>" for the caller to check the server side.
// Screenshots (SCREENSHOT_DIR): toast-<w>.png, my-images-failed-<w>.png, delete-image-<w>.png,
// delete-generation-<w>.png, after-delete-<w>.png.
import path from 'node:path'
import type { Page } from '@playwright/test'
import {
  BASE_URL,
  STEP_TIMEOUT_MS,
  expect,
  expectHidden,
  expectImagesLoaded,
  expectInPage,
  expectVisible,
  fail,
  overflowOf,
  requireEnv,
  screenshot,
  screenshotDir,
  step,
  test,
} from './support'

const USER_EMAIL = requireEnv('USER_EMAIL')
const USER_PASSWORD = requireEnv('USER_PASSWORD')
const SERVICE_IDS = requireEnv('SERVICE_IDS').split(',')
const SCREENSHOT_DIR = screenshotDir('e2e-screenshots')
const REQUIRED = 'Please enter all the value'
const WRONG_LOGIN = 'The email or password is incorrect.'
const WIDTHS = [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
]

test.use({ failureScreenshotDir: SCREENSHOT_DIR, logConsole: true })
test.describe.configure({ timeout: 4 * 60_000 })

/** The texts of the toasts on screen now. */
async function toasts(page: Page): Promise<string[]> {
  return (await page.getByTestId('toast').allInnerTexts()).map((t) => t.trim())
}

async function loginToasts(page: Page, width: number): Promise<void> {
  step(`${width} px: a blank login toasts "${REQUIRED}"; the server's error then replaces it`)
  await page.goto(`${BASE_URL}/login`, { waitUntil: 'domcontentloaded' })
  const form = page.getByTestId('login-form')
  await expectVisible(form, 'the login form')
  await form.getByTestId('login-submit').click()
  await expectVisible(page.getByTestId('toast').filter({ hasText: REQUIRED }), `the "${REQUIRED}" toast`)
  await form.getByTestId('login-email').fill(USER_EMAIL)
  await form.getByTestId('login-password').fill(`${USER_PASSWORD}-wrong`)
  await form.getByTestId('login-submit').click()
  await expectVisible(page.getByTestId('toast').filter({ hasText: WRONG_LOGIN }), 'the wrong-password toast')
  await expectHidden(page.getByTestId('toast').filter({ hasText: REQUIRED }), `the stale "${REQUIRED}" toast`)
  const shown = await toasts(page)
  if (shown.length !== 1) fail(`toasts on screen after the wrong password: ${JSON.stringify(shown)}`)
  await screenshot(page, path.join(SCREENSHOT_DIR, `toast-${width}.png`))

  step(`${width} px: the right password logs in, and takes the error toast away`)
  await form.getByTestId('login-password').fill(USER_PASSWORD)
  await form.getByTestId('login-submit').click()
  await expectHidden(form, 'the login form after logging in')
  await expectInPage(page, () => Boolean(localStorage.getItem('mm:token')), null, 'no session after logging in')
  await expectHidden(page.getByTestId('toast').filter({ hasText: WRONG_LOGIN }), 'the wrong-password toast after logging in')
}

async function library(page: Page, width: number, serviceId: string): Promise<void> {
  step(`${width} px: My Images shows the failed image's input, and no broken image`)
  await page.goto(`${BASE_URL}/my-images`, { waitUntil: 'domcontentloaded' })
  const tiles = page.locator(`[data-testid="library-image"][data-service-id="${serviceId}"]`)
  await expect(tiles, `the two images of ${serviceId}`).toHaveCount(2, { timeout: STEP_TIMEOUT_MS })
  const failed = tiles.and(page.locator('[data-status="failed"]'))
  const good = tiles.and(page.locator('[data-status="completed"]'))
  await expectVisible(failed.getByTestId('library-failure'), 'the failure reason')
  const failedInput = `[data-service-id="${serviceId}"][data-status="failed"] [data-testid="tile-input"] img`
  await failed.scrollIntoViewIfNeeded()
  await expectImagesLoaded(page, failedInput, 'the failed image’s input thumbnail')
  await expectInPage(
    page,
    () => [...document.querySelectorAll<HTMLImageElement>('[data-testid="library-grid"] img')].every((img) => img.complete && img.naturalWidth > 0),
    null,
    'a broken image in My Images',
  )
  const overflow = await overflowOf(page)
  if (overflow > 1) fail(`My Images is ${overflow} px wider than a ${width} px window`)
  await failed.screenshot({ path: path.join(SCREENSHOT_DIR, `my-images-failed-${width}.png`) })
  console.log(`    screenshot: ${path.join(SCREENSHOT_DIR, `my-images-failed-${width}.png`)}`)
  const keptId = await good.getAttribute('data-task-id')
  const deletedId = await failed.getAttribute('data-task-id')

  step(`${width} px: the trash icon on the failed image asks about that image only`)
  await failed.getByTestId('library-delete').click()
  const dialog = page.getByTestId('delete-dialog')
  await expectVisible(dialog, 'the delete confirmation')
  await expect(dialog, 'the dialog’s scope').toHaveAttribute('data-scope', 'image')
  await expect(dialog.getByRole('heading'), 'the dialog’s title').toHaveText(/^Delete image \d+\?$/)
  await expect(dialog.getByTestId('delete-dialog-text'), 'the dialog’s text').toContainText('the other image of this generation stays')
  await expect(dialog.getByTestId('delete-confirm'), 'the confirm button').toHaveText('Delete this image')
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `delete-image-${width}.png`) })
  console.log(`    screenshot: ${path.join(SCREENSHOT_DIR, `delete-image-${width}.png`)}`)

  step(`${width} px: deleting the whole generation is a separate, named step`)
  await dialog.getByTestId('delete-whole-generation').click()
  await expect(dialog, 'the dialog’s scope').toHaveAttribute('data-scope', 'generation')
  await expect(dialog.getByRole('heading'), 'the dialog’s title').toHaveText('Delete the whole generation?')
  await expect(dialog.getByTestId('delete-generation-confirm'), 'the whole-generation button').toHaveText('Delete 2 images')
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `delete-generation-${width}.png`) })
  console.log(`    screenshot: ${path.join(SCREENSHOT_DIR, `delete-generation-${width}.png`)}`)
  await dialog.getByRole('button', { name: 'Back' }).click()
  await expect(dialog, 'the dialog’s scope after Back').toHaveAttribute('data-scope', 'image')

  step(`${width} px: confirmed, the failed image goes and its sibling stays`)
  await dialog.getByTestId('delete-confirm').click()
  await expectHidden(dialog, 'the delete confirmation')
  await expectVisible(page.getByTestId('toast').filter({ hasText: 'The image was deleted.' }), 'the deleted toast')
  await expect(tiles, `the images of ${serviceId} left`).toHaveCount(1, { timeout: STEP_TIMEOUT_MS })
  await expect(tiles.first(), 'the image left').toHaveAttribute('data-task-id', keptId ?? '')
  await expectImagesLoaded(page, `[data-service-id="${serviceId}"] [data-testid="library-output"]`, 'the kept image')
  await tiles.first().scrollIntoViewIfNeeded()
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `after-delete-${width}.png`) })
  console.log(`    screenshot: ${path.join(SCREENSHOT_DIR, `after-delete-${width}.png`)}`)
  console.log(`KEPT ${keptId}`)
  console.log(`DELETED ${deletedId}`)
}

test('My Images one image at a time, at 1366 and 390 px', async ({ walk }) => {
  if (SERVICE_IDS.length !== WIDTHS.length) fail(`SERVICE_IDS needs ${WIDTHS.length} ids, got ${SERVICE_IDS.length}`)
  for (const [i, size] of WIDTHS.entries()) {
    const page = await walk.newPage()
    await page.setViewportSize(size)
    await loginToasts(page, size.width)
    await library(page, size.width, SERVICE_IDS[i]!)
    await page.context().close()
  }
})
