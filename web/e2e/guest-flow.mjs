#!/usr/bin/env node
// Browser test of the guest "Create New Image" flow against a running app.
//
//   BASE_URL=http://127.0.0.1:8000 UPLOAD_IMAGE=/path/person.jpg SCREENSHOT_DIR=out npm run test:e2e
//
// Env: BASE_URL (default http://127.0.0.1:8000), UPLOAD_IMAGE (required, a JPEG
// of a person), SCREENSHOT_DIR (default ./e2e-screenshots), CHROMIUM_PATH
// (default /usr/bin/chromium). Exit code 0 on success, 1 on failure.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { chromium } from 'playwright-core'

const BASE_URL = (process.env.BASE_URL || 'http://127.0.0.1:8000').replace(/\/$/, '')
const UPLOAD_IMAGE = process.env.UPLOAD_IMAGE
const SCREENSHOT_DIR = path.resolve(process.env.SCREENSHOT_DIR || 'e2e-screenshots')
const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium'
const RESULT_TIMEOUT_MS = 120_000
const STEP_TIMEOUT_MS = 30_000

class StepError extends Error {}

let stepName = 'setup'
function step(name) {
  stepName = name
  console.log(`• ${name}`)
}

function fail(message) {
  throw new StepError(message)
}

/** Waits for a locator, failing with a readable message instead of a stack of selectors. */
async function expectVisible(locator, what, timeout = STEP_TIMEOUT_MS) {
  try {
    await locator.first().waitFor({ state: 'visible', timeout })
  } catch {
    fail(`${what} did not appear within ${Math.round(timeout / 1000)} s`)
  }
}

async function expectUrl(page, pathname) {
  try {
    await page.waitForURL((u) => new URL(u).pathname === pathname, { timeout: STEP_TIMEOUT_MS })
  } catch {
    fail(`expected to be on ${pathname}, but the page is at ${new URL(page.url()).pathname}`)
  }
}

/** Waits until the first image with this test id has loaded (a broken URL never does). */
async function expectLoadedImage(page, testId, what) {
  await expectVisible(page.getByTestId(testId), what)
  try {
    await page.waitForFunction(
      (id) => {
        const img = document.querySelector(`[data-testid="${id}"]`)
        return img && img.complete && img.naturalWidth > 0
      },
      testId,
      { timeout: STEP_TIMEOUT_MS },
    )
  } catch {
    fail(`${what} did not load (broken output URL?)`)
  }
}

async function clickNext(page) {
  const next = page.getByTestId('next-button')
  await expectVisible(next, 'the Next button')
  try {
    await page.waitForFunction(
      () => {
        const b = document.querySelector('[data-testid="next-button"]')
        return b && !b.disabled
      },
      null,
      { timeout: STEP_TIMEOUT_MS },
    )
  } catch {
    fail('the Next button stayed disabled')
  }
  await next.click()
}

async function screenshot(page, name) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true })
  const file = path.join(SCREENSHOT_DIR, name)
  await page.screenshot({ path: file, fullPage: true })
  console.log(`  screenshot: ${file}`)
  return file
}

async function run(page) {
  step(`open ${BASE_URL}/`)
  await page.goto(`${BASE_URL}/`, { waitUntil: 'domcontentloaded' })
  await expectVisible(page.getByTestId('nav-create-new-image'), 'the sidebar "Create New Image" entry')

  step('a guest sees no Credit entry (spec §6: signed-in users only)')
  if (await page.locator('.rail [data-testid="nav-credit"]').count()) fail('the sidebar shows Credit to a guest')

  step('Create New Image')
  await page.getByTestId('nav-create-new-image').click()
  await expectUrl(page, '/upload-images')

  step('upload the image')
  await page.getByTestId('upload-input').setInputFiles(UPLOAD_IMAGE)
  const item = page.getByTestId('upload-item').first()
  await expectVisible(item, 'the uploaded file entry')
  // Either the thumbnail (success) or an error message ends the upload.
  try {
    await page.waitForSelector('[data-testid="upload-item"][data-status="done"], [data-testid="upload-item"][data-status="error"]', {
      timeout: 60_000,
    })
  } catch {
    fail('the upload did not finish within 60 s')
  }
  if ((await item.getAttribute('data-status')) === 'error') {
    fail(`the upload failed: ${(await item.getByTestId('upload-error').textContent())?.trim()}`)
  }
  const thumb = item.getByTestId('upload-thumbnail')
  await expectVisible(thumb, 'the upload thumbnail')
  try {
    await page.waitForFunction(
      () => {
        const img = document.querySelector('[data-testid="upload-thumbnail"]')
        return img && img.complete && img.naturalWidth > 0
      },
      null,
      { timeout: STEP_TIMEOUT_MS },
    )
  } catch {
    fail('the upload thumbnail did not load (broken thumbnailUrl?)')
  }
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
  await expectUrl(page, '/select-background')
  const background = page.locator('[data-testid="background-card"][data-builtin="false"]').first()
  await expectVisible(background, 'a photo (non built-in) background')
  const bgName = (await background.getAttribute('aria-label')) ?? '?'
  await background.click()
  if ((await background.getAttribute('aria-pressed')) !== 'true') fail('clicking the background did not select it')
  console.log(`  background: ${bgName}`)
  await clickNext(page)

  step('cost is shown')
  await expectUrl(page, '/generate')
  await expectVisible(page.getByTestId('cost-value'), 'the cost')
  console.log(`  cost: ${(await page.getByTestId('cost-value').textContent())?.trim()} credits`)
  try {
    await page.waitForFunction(
      () => /\d/.test(document.querySelector('[data-testid="generate-balance"]')?.textContent ?? ''),
      null,
      { timeout: STEP_TIMEOUT_MS },
    )
  } catch {
    fail('the generate page never showed the guest balance (guest login or getCreditsForGuests failed?)')
  }
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
  try {
    await page.waitForSelector('[data-testid="output-image"], [data-testid="task-error"]', { timeout: RESULT_TIMEOUT_MS })
  } catch {
    const summary = (await page.getByTestId('job-summary').textContent().catch(() => null)) ?? 'no job shown'
    fail(`no result within ${RESULT_TIMEOUT_MS / 1000} s (${summary.trim()})`)
  }
  const taskError = page.getByTestId('task-error').first()
  if ((await page.getByTestId('output-image').count()) === 0 && (await taskError.isVisible())) {
    fail(`the generation failed: ${(await taskError.textContent())?.trim()}`)
  }
  await expectUrl(page, '/output-image')
  const serviceId = new URL(page.url()).searchParams.get('serviceId')
  if (!serviceId) fail(`the output page has no ?serviceId= (${page.url()})`)
  console.log(`  serviceId: ${serviceId}`)
  await expectLoadedImage(page, 'output-image', 'the result image')

  step('reload: the results come from the server')
  await page.reload({ waitUntil: 'domcontentloaded' })
  await expectLoadedImage(page, 'output-image', 'the result image after a reload')
  await expectVisible(page.getByTestId('download-all'), 'the "Download all" button')

  step('Download')
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: STEP_TIMEOUT_MS }).catch(() => null),
    page.getByTestId('download-button').first().click(),
  ])
  if (!download) {
    const err = await page.locator('.download__error').first().textContent().catch(() => null)
    fail(`no download started${err ? `: ${err.trim()}` : ''}`)
  }
  const failure = await download.failure()
  if (failure) fail(`the download failed: ${failure}`)
  const saved = path.join(SCREENSHOT_DIR, download.suggestedFilename() || 'download.bin')
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true })
  await download.saveAs(saved)
  const size = fs.statSync(saved).size
  if (size === 0) fail(`the downloaded file ${download.suggestedFilename()} is empty`)
  console.log(`  downloaded ${download.suggestedFilename()} (${size} bytes)`)

  step('screenshot')
  await screenshot(page, 'guest-flow-result.png')
}

async function main() {
  if (!UPLOAD_IMAGE) {
    console.error('FAIL: set UPLOAD_IMAGE to the path of a JPEG of a person')
    return 1
  }
  if (!fs.existsSync(UPLOAD_IMAGE)) {
    console.error(`FAIL: UPLOAD_IMAGE does not exist: ${UPLOAD_IMAGE}`)
    return 1
  }
  if (!fs.existsSync(CHROMIUM_PATH)) {
    console.error(`FAIL: no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium, or set CHROMIUM_PATH)`)
    return 1
  }

  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-e2e-'))
  let context
  let page
  const pageErrors = []
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
      acceptDownloads: true,
      viewport: { width: 1280, height: 900 },
    })
    page = context.pages()[0] ?? (await context.newPage())
    page.on('pageerror', (e) => pageErrors.push(e.message))
    page.on('console', (msg) => {
      if (msg.type() === 'error') console.log(`  [browser] ${msg.text()}`)
    })
    await run(page)
    if (pageErrors.length) fail(`uncaught errors in the page: ${pageErrors.join(' | ')}`)
    console.log('PASS: guest flow completed')
    console.log('1 passed, 0 failed')
    return 0
  } catch (err) {
    const why = err instanceof StepError ? err.message : err?.stack || String(err)
    console.error(`FAIL at step "${stepName}": ${why}`)
    if (page) {
      try {
        await screenshot(page, 'guest-flow-failure.png')
      } catch {
        /* the page may be gone */
      }
    }
    console.log('0 passed, 1 failed')
    return 1
  } finally {
    await context?.close().catch(() => {})
    fs.rmSync(userDataDir, { recursive: true, force: true })
  }
}

process.exitCode = await main()
