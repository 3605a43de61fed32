// Browser test of the guest "Create New Image" flow against a running app.
//
//   BASE_URL=http://127.0.0.1:8000 UPLOAD_IMAGE=/path/person.jpg SCREENSHOT_DIR=out npm run test:e2e
//
// Env: BASE_URL (default http://127.0.0.1:8000), UPLOAD_IMAGE (required, a JPEG
// of a person), SCREENSHOT_DIR (default ./e2e-screenshots), CHROMIUM_PATH
// (default /usr/bin/chromium). One test; the browser's console errors are printed
// ("[browser] …"), uncaught page errors fail it.
import fs from 'node:fs'
import path from 'node:path'
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
  overflowOf,
  pickPhotoBackground,
  requireFile,
  screenshot,
  screenshotDir,
  step,
  test,
  uploadPhoto,
} from './support'

const UPLOAD_IMAGE = requireFile('UPLOAD_IMAGE')
const SCREENSHOT_DIR = screenshotDir('e2e-screenshots')
const RESULT_TIMEOUT_MS = 120_000

test.use({ failureScreenshotDir: SCREENSHOT_DIR, logConsole: true })
// Two generations of up to RESULT_TIMEOUT_MS each, and the steps around them.
test.describe.configure({ timeout: 8 * 60_000 })

test('guest flow', async ({ walk }) => {
  const page = await walk.newPage()
  // Guest sessions started (each new guest may take one of the network's three free grants a day).
  const guestLogins: string[] = []
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/imageedit/users/guestlogin') guestLogins.push(page.url())
  })
  step(`open ${BASE_URL}/`)
  await page.goto(`${BASE_URL}/`, { waitUntil: 'domcontentloaded' })
  await expectVisible(page.getByTestId('nav-create-new-image'), 'the sidebar "Create New Image" entry')

  step('a guest sees no Credit entry (spec §6: signed-in users only)')
  if (await page.locator('.rail [data-testid="nav-credit"]').count()) fail('the sidebar shows Credit to a guest')

  step('Create New Image')
  await page.getByTestId('nav-create-new-image').click()
  await expectUrl(page, '/upload-images')

  step('a visit starts no guest session: only the first upload does')
  await page.waitForLoadState('networkidle')
  if (guestLogins.length) fail(`the visit started a guest session (${guestLogins.join(', ')})`)

  step('upload the image')
  await uploadPhoto(page, UPLOAD_IMAGE)
  await expectImagesLoaded(page, '[data-testid="upload-thumbnail"]', 'the upload thumbnail')
  if (guestLogins.length !== 1) fail(`the upload started ${guestLogins.length} guest sessions, not one`)
  step('the photo is analysed: a person facing the camera, good for both services')
  const analysis = page.getByTestId('upload-analysis')
  await expectVisible(analysis, 'the photo analysis beside the upload', 20_000)
  const said = (await analysis.textContent())?.trim() ?? ''
  if (!said.includes('A person, facing the camera')) fail(`the analysis says "${said}"`)
  for (const service of ['bodySwap', 'burstreplace']) {
    const verdict = analysis.locator(`[data-service="${service}"]`)
    if ((await verdict.getAttribute('data-ok')) !== 'true') fail(`${service}: ${await verdict.textContent()}`)
  }
  await screenshot(page, path.join(SCREENSHOT_DIR, 'guest-flow-upload.png'))
  for (const viewport of [{ width: 650, height: 900 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(viewport)
    // The verdicts wrap inside the upload's card: nothing runs off the side of the page.
    const overflow = await overflowOf(page)
    if (overflow > 0) fail(`at ${viewport.width}px the upload page is ${overflow}px too wide`)
    const box = await analysis.boundingBox()
    if (!box || box.x + box.width > viewport.width) fail(`at ${viewport.width}px the analysis runs off the screen`)
    await screenshot(page, path.join(SCREENSHOT_DIR, `guest-flow-upload-${viewport.width}.png`))
  }
  await page.setViewportSize({ width: 1280, height: 900 })
  await clickNext(page)

  step('pick the first catalog model')
  await expectUrl(page, '/select-model')
  const model = page.getByTestId('model-card').first()
  await expectVisible(model, 'a model in the catalog')
  const modelName = (await model.getAttribute('aria-label')) ?? '?'
  await model.click()
  if ((await model.getAttribute('aria-pressed')) !== 'true') fail('clicking the model did not select it')
  console.log(`  model: ${modelName}`)
  await clickNext(page)

  step('pick a photo background')
  console.log(`  background: ${await pickPhotoBackground(page)}`)
  await clickNext(page)

  step('cost is shown')
  await expectUrl(page, '/generate')
  await expectVisible(page.getByTestId('cost-value'), 'the cost')
  console.log(`  cost: ${(await page.getByTestId('cost-value').textContent())?.trim()} credits`)
  await expectInPage(
    page,
    () => /\d/.test(document.querySelector('[data-testid="generate-balance"]')?.textContent ?? ''),
    null,
    'the generate page never showed the guest balance (guest login or getCreditsForGuests failed?)',
  )
  console.log(`  balance: ${(await page.getByTestId('generate-balance').textContent())?.trim()} credits`)

  step('Generate')
  const generate = page.getByTestId('generate-button')
  await expectVisible(generate, 'the Generate button')
  if (await generate.isDisabled()) fail('the Generate button is disabled')
  await generate.click()

  step('progress is visible')
  // A very fast backend may finish before the progress bar is seen, so a result also counts.
  await expectVisible(
    page.locator('[data-testid="task-progress"], [data-testid="result-image"], [data-testid="output-image"], [data-testid="task-error"], [data-testid="insufficient-credits"], [data-testid="generate-error"]'),
    'generation progress',
  )
  for (const id of ['insufficient-credits', 'generate-error']) {
    const alert = page.getByTestId(id)
    if (await alert.isVisible()) fail(`generation was refused: ${(await alert.innerText()).replace(/\s+/g, ' ').trim()}`)
  }

  step(`result image on /output-image?serviceId= (up to ${RESULT_TIMEOUT_MS / 1000} s)`)
  // When the generation ends with images the generate page opens the output page, which reads
  // the generation from the server by its id; if every image failed, the reasons stay on /generate.
  await expectResult(page, RESULT_TIMEOUT_MS)

  step('reload: the results come from the server')
  await page.reload({ waitUntil: 'domcontentloaded' })
  await expectImagesLoaded(page, '[data-testid="output-image"]', 'the result image after a reload')
  await expectVisible(page.getByTestId('download-all'), 'the "Download all" button')

  step('Download')
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: STEP_TIMEOUT_MS }).catch(() => null),
    page.getByTestId('download-button').first().click(),
  ])
  if (!download) {
    const err = await page.getByRole('alert').first().textContent().catch(() => null)
    fail(`no download started${err ? `: ${err.trim()}` : ''}`)
  }
  const failure = await download.failure()
  if (failure) fail(`the download failed: ${failure}`)
  const saved = path.join(SCREENSHOT_DIR, download.suggestedFilename() || 'download.bin')
  await download.saveAs(saved)
  const size = fs.statSync(saved).size
  if (size === 0) fail(`the downloaded file ${download.suggestedFilename()} is empty`)
  console.log(`  downloaded ${download.suggestedFilename()} (${size} bytes)`)

  step('screenshot')
  await screenshot(page, path.join(SCREENSHOT_DIR, 'guest-flow-result.png'))

  // On a phone, upright and on its side: the whole editor fits the width, the stage fits the
  // height, and the buttons are reachable.
  for (const viewport of [{ width: 390, height: 844 }, { width: 650, height: 390 }]) {
    step(`Adjust placement at ${viewport.width}x${viewport.height}`)
    await page.setViewportSize(viewport)
    await page.getByTestId('adjust-placement').first().click()
    const stage = page.getByTestId('placement-stage')
    await expectVisible(stage, 'the placement editor')
    const overflow = await overflowOf(page)
    if (overflow > 1) fail(`at ${viewport.width}px the page is ${overflow}px wider than the window`)
    const panel = await page.getByTestId('placement-editor').getByRole('dialog').boundingBox()
    if (!panel || panel.x < 0 || panel.x + panel.width > viewport.width + 1) {
      fail(`at ${viewport.width}px the editor does not fit the width: ${JSON.stringify(panel)}`)
    }
    const stageBox = await stage.boundingBox()
    if (!stageBox || stageBox.height > viewport.height * 0.75) {
      fail(`at ${viewport.width}x${viewport.height} the stage is ${stageBox?.height}px tall`)
    }
    const sliderBox = await page.getByTestId('placement-size').boundingBox()
    if (!sliderBox || sliderBox.y < stageBox.y + stageBox.height) {
      fail(`at ${viewport.width}x${viewport.height} the stage overlaps the size slider`)
    }
    const rerenderButton = page.getByTestId('placement-rerender')
    await rerenderButton.scrollIntoViewIfNeeded()
    await expectVisible(rerenderButton, `"Re-render" at ${viewport.width}px`)
    // What the phone shows (the window, not the whole page).
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `guest-flow-placement-${viewport.width}.png`) })
    await page.getByTestId('placement-editor').getByRole('button', { name: 'Cancel' }).click()
    await expectHidden(stage, 'the placement editor after "Cancel"')
  }
  await page.setViewportSize({ width: 1280, height: 900 })

  step('Adjust placement: drag the subject right, shrink it, re-render for free')
  await page.getByTestId('adjust-placement').first().click()
  const subject = page.getByTestId('placement-subject')
  await expectVisible(subject, 'the placement editor')
  const box = await subject.boundingBox()
  if (!box) fail('the subject in the placement editor has no box')
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  await page.mouse.down()
  await page.mouse.move(box.x + box.width / 2 + box.width * 0.2, box.y + box.height / 2, { steps: 5 })
  await page.mouse.up()
  await page.getByTestId('placement-size').fill('0.8')
  const summary = (await page.getByTestId('placement-summary').textContent()) ?? ''
  if (!/right/.test(summary) || !/0\.80/.test(summary)) fail(`the editor says "${summary.trim()}", not moved right at ×0.80`)
  await screenshot(page, path.join(SCREENSHOT_DIR, 'guest-flow-placement.png'))
  await page.getByTestId('placement-rerender').click()
  await expectHidden(subject, 'the placement editor after "Re-render"')

  step(`the new version shows on the output page (up to ${RESULT_TIMEOUT_MS / 1000} s)`)
  await expectVisible(page.getByTestId('version-image'), 'the re-rendered version', RESULT_TIMEOUT_MS)
  await expectImagesLoaded(page, '[data-testid="version-image"]', 'the re-rendered version')
  await screenshot(page, path.join(SCREENSHOT_DIR, 'guest-flow-version.png'))

  step("the page's count matches its tiles: the image and its new version")
  const tiles = await page.locator('[data-testid="output-item"], [data-testid="version-item"]').count()
  const counted = (await page.getByTestId('output-summary').textContent()) ?? ''
  if (tiles !== 2 || !counted.includes('1 of 1 image ready, 1 new version')) {
    fail(`${tiles} tiles, and the page says "${counted.trim()}"`)
  }
})
