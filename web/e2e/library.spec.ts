// Browser test of My Images and the output page: a user's images outlive the browser.
//
//   BASE_URL=http://127.0.0.1:8000 USER_EMAIL=a@example.com USER_PASSWORD=secret \
//   UPLOAD_IMAGE=/path/person.jpg EXPECT_IMAGES=3 npx playwright test e2e/library.spec.ts
//
// The account must exist and already own EXPECT_IMAGES - 1 finished images (tests/e2e/
// test_library_browser.py makes them through the API). The walk:
//  1. browser context A: My Images as a guest shows Login; log in through the modal; generate
//     one image through the flow, which ends on /output-image?serviceId=…; close the context;
//  2. a NEW context (another device): log in on /login; the deep link shows the same results;
//     My Images lists every image with its input; select all → one ZIP (a valid archive with
//     EXPECT_IMAGES entries); thumbs up + comment, kept after a reload; full size opens and
//     Escape closes it; delete the browser-made generation after confirming: it disappears.
// Prints "DELETED <serviceId>" and "FEEDBACK <taskId>" for the caller to check the server side.
// Env: SCREENSHOT_DIR (default ./e2e-screenshots), CHROMIUM_PATH (default /usr/bin/chromium).
// One test; the browser's console errors are printed ("[browser] …"), uncaught page errors fail it.
import fs from 'node:fs'
import path from 'node:path'
import type { Locator, Page } from '@playwright/test'
import {
  BASE_URL,
  STEP_TIMEOUT_MS,
  clickNext,
  expectHidden,
  expectImagesLoaded,
  expectInPage,
  expectResult,
  expectUrl,
  expectVisible,
  fail,
  logIn,
  logInThroughModal,
  pickPhotoBackground,
  requireEnv,
  requireFile,
  screenshot,
  screenshotDir,
  step,
  test,
  uploadPhoto,
} from './support'

const USER_EMAIL = requireEnv('USER_EMAIL')
const USER_PASSWORD = requireEnv('USER_PASSWORD')
const UPLOAD_IMAGE = requireFile('UPLOAD_IMAGE')
const EXPECT_IMAGES = Number(process.env.EXPECT_IMAGES || '3')
const SCREENSHOT_DIR = screenshotDir('e2e-screenshots')
const RESULT_TIMEOUT_MS = 120_000
const COMMENT = 'Lovely light on the jacket'

test.use({ failureScreenshotDir: SCREENSHOT_DIR, logConsole: true })
// A generation of up to RESULT_TIMEOUT_MS, and two devices' worth of steps around it.
test.describe.configure({ timeout: 8 * 60_000 })

async function expectCount(locator: Locator, count: number, what: string): Promise<void> {
  const deadline = Date.now() + STEP_TIMEOUT_MS
  let seen = -1
  while (Date.now() < deadline) {
    seen = await locator.count()
    if (seen === count) return
    await new Promise((r) => setTimeout(r, 200))
  }
  fail(`expected ${count} ${what}, saw ${seen}`)
}

/** Counts the entries of a ZIP from its end-of-central-directory record, checking signatures. */
function zipEntries(bytes: Buffer): string[] {
  if (bytes.length < 22 || bytes.readUInt32LE(0) !== 0x04034b50) fail('the download is not a ZIP (no PK\\x03\\x04 signature)')
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at -= 1) {
    if (bytes.readUInt32LE(at) !== 0x06054b50) continue
    const entries = bytes.readUInt16LE(at + 10)
    const dirSize = bytes.readUInt32LE(at + 12)
    const dirOffset = bytes.readUInt32LE(at + 16)
    if (dirOffset + dirSize > at) fail('the ZIP central directory is out of bounds')
    const names: string[] = []
    let p = dirOffset
    for (let i = 0; i < entries; i += 1) {
      if (bytes.readUInt32LE(p) !== 0x02014b50) fail(`ZIP central directory entry ${i + 1} is damaged`)
      const nameLength = bytes.readUInt16LE(p + 28)
      const extra = bytes.readUInt16LE(p + 30)
      const comment = bytes.readUInt16LE(p + 32)
      names.push(bytes.subarray(p + 46, p + 46 + nameLength).toString('utf8'))
      p += 46 + nameLength + extra + comment
    }
    return names
  }
  fail('the ZIP has no end-of-central-directory record (truncated?)')
}

// ---------------------------------------------------------------------------

/** Context A: log in from My Images, generate one image, end on the output page. */
async function firstDevice(page: Page): Promise<string> {
  step('My Images as a guest explains and offers Login')
  await page.goto(`${BASE_URL}/my-images`, { waitUntil: 'domcontentloaded' })
  await expectVisible(page.getByTestId('library-guest'), 'the guest explanation')
  await page.getByTestId('library-login').click()
  await logInThroughModal(page, USER_EMAIL, USER_PASSWORD)

  step(`the library lists the ${EXPECT_IMAGES - 1} images made through the API`)
  await expectCount(page.getByTestId('library-image'), EXPECT_IMAGES - 1, 'images in My Images')

  step('generate one image in the flow')
  await page.goto(`${BASE_URL}/upload-images`, { waitUntil: 'domcontentloaded' })
  await uploadPhoto(page, UPLOAD_IMAGE)
  await clickNext(page)
  await expectUrl(page, '/select-model')
  const model = page.getByTestId('model-card').first()
  await expectVisible(model, 'a model in the catalog')
  await model.click()
  await clickNext(page)
  await pickPhotoBackground(page)
  await clickNext(page)
  await expectUrl(page, '/generate')
  await expectVisible(page.getByTestId('cost-value'), 'the cost')
  await page.getByTestId('generate-button').click()

  step('the generate page opens /output-image?serviceId=… when done')
  return expectResult(page, RESULT_TIMEOUT_MS)
}

/** Context B: another device. */
async function secondDevice(page: Page, serviceId: string): Promise<void> {
  step('log in on /login')
  await logIn(page, USER_EMAIL, USER_PASSWORD)
  await expectVisible(page.getByTestId('nav-logout'), 'the sidebar Logout entry')

  step('the output deep link shows the same result on this device')
  await page.goto(`${BASE_URL}/output-image?serviceId=${encodeURIComponent(serviceId)}`, { waitUntil: 'domcontentloaded' })
  await expectImagesLoaded(page, '[data-testid="output-image"]', 'the generated image on the output page')
  await expectVisible(page.getByTestId('download-all'), '"Download all"')

  step(`My Images lists all ${EXPECT_IMAGES} images, with inputs`)
  await page.goto(`${BASE_URL}/my-images`, { waitUntil: 'domcontentloaded' })
  const tiles = page.getByTestId('library-image')
  await expectCount(tiles, EXPECT_IMAGES, 'images in My Images')
  const mine = page.locator(`[data-testid="library-image"][data-service-id="${serviceId}"]`)
  await expectCount(mine, 1, `image of generation ${serviceId}`)
  await expectImagesLoaded(page, '[data-testid="library-output"]', 'the output thumbnails')
  await expectImagesLoaded(page, '[data-testid="tile-input"] img', 'the input thumbnails')

  step('select all → one ZIP')
  await page.getByTestId('library-select-all').check()
  const count = (await page.getByTestId('library-selected-count').textContent())?.trim()
  if (!count?.startsWith(`${EXPECT_IMAGES} images`)) fail(`selection says "${count}"`)
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 60_000 }).catch(() => null),
    page.getByTestId('library-zip').click(),
  ])
  if (!download) {
    const err = await page.getByTestId('library-zip-error').textContent().catch(() => null)
    fail(`no ZIP download started${err ? `: ${err.trim()}` : ''}`)
  }
  const failure = await download.failure()
  if (failure) fail(`the ZIP download failed: ${failure}`)
  const zipPath = path.join(SCREENSHOT_DIR, download.suggestedFilename() || 'images.zip')
  await download.saveAs(zipPath)
  const names = zipEntries(fs.readFileSync(zipPath))
  if (names.length !== EXPECT_IMAGES) fail(`the ZIP has ${names.length} entries, expected ${EXPECT_IMAGES}: ${names.join(', ')}`)
  console.log(`  ${download.suggestedFilename()}: ${names.join(', ')}`)
  await page.getByTestId('library-select-all').uncheck()

  step('thumbs up and a comment, kept after a reload')
  const taskId = await mine.getAttribute('data-task-id')
  await mine.getByTestId('feedback-up').click()
  await expectInPage(
    page,
    (id) =>
      document
        .querySelector(`[data-testid="library-image"][data-task-id="${id}"] [data-testid="feedback-up"]`)
        ?.getAttribute('aria-pressed') === 'true',
    taskId,
    'thumbs up did not stay pressed',
  )
  await mine.getByTestId('feedback-comment-edit').click()
  await mine.getByTestId('feedback-comment-input').fill(COMMENT)
  await mine.getByTestId('feedback-save').click()
  await expectVisible(mine.getByTestId('feedback-comment').filter({ hasText: COMMENT }), 'the saved comment')
  await page.reload({ waitUntil: 'domcontentloaded' })
  await expectVisible(mine.getByTestId('feedback-comment').filter({ hasText: COMMENT }), 'the comment after a reload')
  if ((await mine.getByTestId('feedback-up').getAttribute('aria-pressed')) !== 'true') fail('thumbs up was lost on reload')
  console.log(`FEEDBACK ${taskId}`)

  step('open full size; Escape closes')
  await mine.getByTestId('library-open').click()
  const viewer = page.getByTestId('image-viewer')
  await expectImagesLoaded(page, '[data-testid="viewer-image"]', 'the full-size image')
  await page.keyboard.press('Escape')
  await expectHidden(viewer, 'the full-size viewer')

  step('delete the generation after confirming')
  await mine.getByTestId('library-delete').click()
  const dialog = page.getByTestId('delete-dialog')
  await expectVisible(dialog, 'the delete confirmation')
  await dialog.getByTestId('delete-confirm').click()
  await expectHidden(dialog, 'the delete confirmation')
  await expectCount(mine, 0, `images of the deleted generation ${serviceId}`)
  await expectCount(tiles, EXPECT_IMAGES - 1, 'images left in My Images')
  console.log(`DELETED ${serviceId}`)

  step('screenshot')
  await screenshot(page, path.join(SCREENSHOT_DIR, 'library-result.png'))
}

/** Context A, then context B (another device). */
test('library walk', async ({ walk }) => {
  const first = await walk.newPage()
  const serviceId = await firstDevice(first)
  await first.context().close()
  await secondDevice(await walk.newPage(), serviceId)
})
