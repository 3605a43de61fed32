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
//     EXPECT_IMAGES entries); thumbs up + comment, kept after a reload; the tiles show whole
//     images; the viewer opens on the first image ("1 of 3"), → shows the next, C compares with
//     the input, zoom in/+ and 0, its layout fits at 1366, 650 and 390 px (screenshots of it
//     and of My Images at each), Escape closes it; delete the browser-made generation after
//     confirming: it disappears.
// Prints "DELETED <serviceId>" and "FEEDBACK <taskId>" for the caller to check the server side.
// Env: SCREENSHOT_DIR (default ./e2e-screenshots), CHROMIUM_PATH (default /usr/bin/chromium).
// One test; the browser's console errors are printed ("[browser] …"), uncaught page errors fail it.
import fs from 'node:fs'
import path from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { VIEWPORT } from './settings'
import {
  BASE_URL,
  STEP_TIMEOUT_MS,
  clickNext,
  expect,
  expectHidden,
  expectImagesLoaded,
  expectInPage,
  expectResult,
  expectUrl,
  expectVisible,
  fail,
  logIn,
  logInThroughModal,
  overflowOf,
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

/** A screenshot of the window as it is (the viewer is fixed to it: a full-page shot would stretch it). */
async function windowShot(page: Page, file: string): Promise<void> {
  await page.screenshot({ path: file })
  console.log(`    screenshot: ${file}`)
}

/** The windows the viewer and My Images are checked and photographed at. */
const SIZES = [
  { width: 1366, height: 768 },
  { width: 650, height: 900 },
  { width: 390, height: 844 },
]

/**
 * The open viewer fits the window: its image is not wider (or taller) than the viewport, every
 * button is inside the window and on top where it is clicked (nothing overlaps it), no two
 * buttons overlap, and the download buttons are clear of the image.
 */
async function viewerLayout(page: Page, where: string): Promise<void> {
  const problems = await page.evaluate(async () => {
    // Measure the settled layout, not a zoom transition.
    await Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)))
    const found: string[] = []
    const viewer = document.querySelector('[data-testid="image-viewer"]')
    if (!viewer) return ['the viewer is not open']
    const vw = window.innerWidth
    const vh = window.innerHeight
    const name = (el: Element) => el.getAttribute('aria-label') || el.textContent?.trim() || el.tagName
    const overlap = (a: DOMRect, b: DOMRect) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1
    const image = viewer.querySelector('[data-testid="viewer-image"], [data-testid="viewer-compare"]')
    const stage = viewer.querySelector('[data-testid="viewer-stage"]')
    if (!image || !stage) return ['the viewer shows no image']
    const box = image.getBoundingClientRect()
    if (box.width > vw || box.left < -1 || box.right > vw + 1) found.push(`the image is ${Math.round(box.width)} px wide (${Math.round(box.left)}…${Math.round(box.right)}) in a ${vw} px window`)
    if (box.height > vh || box.bottom > vh + 1) found.push(`the image is ${Math.round(box.height)} px tall, ending at ${Math.round(box.bottom)}, in a ${vh} px window`)
    if (box.width < 100 || box.height < 100) found.push(`the image is only ${Math.round(box.width)}×${Math.round(box.height)} px`)
    const stageBox = stage.getBoundingClientRect()
    const buttons = Array.from(viewer.querySelectorAll<HTMLElement>('button')).filter((b) => {
      const r = b.getBoundingClientRect()
      return r.width > 0 && r.height > 0 && getComputedStyle(b).opacity !== '0'
    })
    buttons.forEach((b, i) => {
      const r = b.getBoundingClientRect()
      if (r.left < -1 || r.top < -1 || r.right > vw + 1 || r.bottom > vh + 1) found.push(`"${name(b)}" is outside the window`)
      const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)
      if (!top || !b.contains(top)) found.push(`"${name(b)}" is covered by ${top ? `<${top.tagName.toLowerCase()} class="${top.className}">` : 'nothing'}`)
      buttons.slice(i + 1).forEach((other) => {
        if (overlap(r, other.getBoundingClientRect())) found.push(`"${name(b)}" overlaps "${name(other)}"`)
      })
      if (!stage.contains(b) && overlap(r, stageBox)) found.push(`"${name(b)}" overlaps the image`)
    })
    return found
  })
  if (problems.length) fail(`the viewer's layout at ${where}: ${problems.join('; ')}`)
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

  step('the tiles show whole images (contained, not cropped)')
  const fits = await page.$$eval('[data-testid="library-output"]', (imgs) => imgs.map((i) => getComputedStyle(i).objectFit))
  if (fits.some((f) => f !== 'contain')) fail(`tile images are cropped (object-fit: ${fits.join(', ')})`)

  step('the viewer: opens on the first image, → browses, C compares, zoom, Escape closes')
  await tiles.first().getByTestId('library-open').click()
  const viewer = page.getByTestId('image-viewer')
  await expectImagesLoaded(page, '[data-testid="viewer-image"]', 'the full-size image')
  const counter = viewer.getByTestId('viewer-counter')
  await expect(counter, 'the viewer counter').toHaveText(`1 of ${EXPECT_IMAGES}`)
  await page.keyboard.press('ArrowRight')
  await expect(counter, 'the counter after →').toHaveText(`2 of ${EXPECT_IMAGES}`)
  await expectImagesLoaded(page, '[data-testid="viewer-image"]', 'the next full-size image')
  await page.keyboard.press('ArrowLeft')
  await expect(counter, 'the counter after ←').toHaveText(`1 of ${EXPECT_IMAGES}`)

  await page.keyboard.press('c')
  await expectVisible(viewer.getByTestId('viewer-compare'), 'the before/after compare')
  await expectImagesLoaded(page, '[data-testid="viewer-compare"] img', 'the input and the output in the compare')
  await expect(viewer.getByTestId('viewer-compare-toggle'), 'the compare switch').toHaveAttribute('aria-pressed', 'true')
  await viewerLayout(page, 'compare at 1280 px')
  await windowShot(page, path.join(SCREENSHOT_DIR, 'viewer-compare-1280.png'))
  await page.keyboard.press('c')
  await expectHidden(viewer.getByTestId('viewer-compare'), 'the compare')

  const zoom = viewer.getByTestId('viewer-zoom')
  await expect(zoom, 'the zoom level').toHaveText('100%')
  await viewer.getByTestId('viewer-zoom-in').click()
  await expect(zoom, 'the zoom level after Zoom in').toHaveText('150%')
  await page.keyboard.press('+')
  await expect(zoom, 'the zoom level after +').toHaveText('200%')
  await expect(viewer.getByTestId('viewer-stage'), 'the zoomed stage').toHaveAttribute('data-zoom', '2')
  await windowShot(page, path.join(SCREENSHOT_DIR, 'viewer-zoomed-1280.png'))
  await page.keyboard.press('0')
  await expect(zoom, 'the zoom level after 0').toHaveText('100%')

  step('the viewer and My Images at 1366, 650 and 390 px: the image fits, nothing covers the buttons')
  for (const size of SIZES) {
    await page.setViewportSize(size)
    await expectImagesLoaded(page, '[data-testid="viewer-image"]', `the full-size image at ${size.width} px`)
    await viewerLayout(page, `${size.width} px`)
    await windowShot(page, path.join(SCREENSHOT_DIR, `viewer-${size.width}.png`))
  }
  await page.keyboard.press('Escape')
  await expectHidden(viewer, 'the full-size viewer')
  for (const size of SIZES) {
    await page.setViewportSize(size)
    await page.evaluate(() => window.scrollTo(0, 0))
    await expectImagesLoaded(page, '[data-testid="library-output"]', `the output thumbnails at ${size.width} px`)
    const overflow = await overflowOf(page)
    if (overflow > 1) fail(`My Images is ${overflow} px wider than a ${size.width} px window`)
    await screenshot(page, path.join(SCREENSHOT_DIR, `my-images-${size.width}.png`))
  }
  await page.setViewportSize(VIEWPORT)

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
