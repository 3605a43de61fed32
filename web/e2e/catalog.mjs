#!/usr/bin/env node
// Browser test of the catalog from an operator's upload to a guest's generation: an admin
// uploads a digital model on /digital-models (a draft), publishes it; a guest in another browser
// context finds it on /select-model through its category chip, picks it and generates; after the
// admin unpublishes it, a fresh guest no longer sees it.
//
//   BASE_URL=… ADMIN_EMAIL=… PASSWORD=… MODEL_PHOTO=/path/one-person.jpg \
//     UPLOAD_IMAGE=/path/garment.jpg MODEL_NAME="Runway abc" MODEL_CATEGORY="catwalk abc" \
//     SCREENSHOT_DIR=out/catalog node e2e/catalog.mjs
//
// The caller makes the admin (tests/e2e/test_catalog_browser.py) and checks afterwards, through
// the API and the database, that the generation used the model. The walk prints
// "modelId: …" and "serviceId: …" for it, then "N passed, N failed"; exit code 1 on any failure.
import fs from 'node:fs'
import path from 'node:path'
import { chromium } from 'playwright-core'

const env = (name) => {
  const value = process.env[name]
  if (!value) {
    console.error(`${name} is required`)
    process.exit(2)
  }
  return value
}

const BASE_URL = (process.env.BASE_URL || 'http://127.0.0.1:8000').replace(/\/$/, '')
const SCREENSHOT_DIR = path.resolve(process.env.SCREENSHOT_DIR || 'out/catalog')
const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium'
const STEP_TIMEOUT_MS = 30_000
const UPLOAD_TIMEOUT_MS = 90_000
const RESULT_TIMEOUT_MS = 180_000
const ADMIN_EMAIL = env('ADMIN_EMAIL')
const PASSWORD = env('PASSWORD')
const MODEL_PHOTO = env('MODEL_PHOTO')
const UPLOAD_IMAGE = env('UPLOAD_IMAGE')
const MODEL_NAME = env('MODEL_NAME')
const MODEL_CATEGORY = env('MODEL_CATEGORY')

// As the server stores a category (lower case, spaces collapsed) and the picker labels its chip.
const STORED_CATEGORY = MODEL_CATEGORY.replace(/\s+/g, ' ').trim().toLowerCase()
const CHIP_LABEL = STORED_CATEGORY.charAt(0).toUpperCase() + STORED_CATEGORY.slice(1)

// A 401 before the guest session exists is expected; Chromium still logs the status.
const EXPECTED_STATUS = /Failed to load resource: the server responded with a status of 401/

class StepError extends Error {}

function step(name) {
  console.log(`  • ${name}`)
}

function fail(message) {
  throw new StepError(message)
}

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

async function openPage(context, route) {
  const page = await context.newPage()
  page.setDefaultTimeout(STEP_TIMEOUT_MS)
  const errors = []
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !EXPECTED_STATUS.test(msg.text())) errors.push(msg.text())
  })
  page.on('pageerror', (err) => errors.push(`uncaught: ${err.message}`))
  await page.goto(`${BASE_URL}${route}`, { waitUntil: 'load' })
  return { page, errors }
}

async function screenshot(page, name) {
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true })
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

/** The admin's card of the new model on /digital-models. */
function modelCard(page) {
  return page.getByTestId('catalog-item').filter({ has: page.getByText(MODEL_NAME, { exact: true }) })
}

async function expectState(card, state) {
  try {
    await card.getByTestId('catalog-item-state').filter({ hasText: state }).waitFor({ timeout: STEP_TIMEOUT_MS })
  } catch {
    const shown = (await card.getByTestId('catalog-item-state').textContent().catch(() => null))?.trim()
    fail(`the model is not shown as "${state}" (it says "${shown}")`)
  }
}

/** A guest from the start of the flow: Create New Image, upload the photo, on to /select-model. */
async function guestToSelectModel(page) {
  step('Create New Image')
  await expectVisible(page.getByTestId('nav-create-new-image'), 'the sidebar "Create New Image" entry')
  await page.getByTestId('nav-create-new-image').click()
  await expectUrl(page, '/upload-images')

  step('upload a photo')
  await page.getByTestId('upload-input').setInputFiles(UPLOAD_IMAGE)
  const item = page.getByTestId('upload-item').first()
  await expectVisible(item, 'the uploaded file entry')
  try {
    await page.waitForSelector(
      '[data-testid="upload-item"][data-status="done"], [data-testid="upload-item"][data-status="error"]',
      { timeout: UPLOAD_TIMEOUT_MS },
    )
  } catch {
    fail(`the upload did not finish within ${UPLOAD_TIMEOUT_MS / 1000} s`)
  }
  if ((await item.getAttribute('data-status')) === 'error') {
    fail(`the upload failed: ${(await item.getByTestId('upload-error').textContent())?.trim()}`)
  }
  await clickNext(page)
  await expectUrl(page, '/select-model')
  await expectVisible(page.getByTestId('model-card'), 'the catalog models')
}

/** Every model name the picker offers under "All", page by page. */
async function allModelNames(page) {
  const names = []
  for (let i = 0; i < 50; i += 1) {
    await expectVisible(page.getByTestId('model-card'), 'the catalog models')
    const labels = await page.getByTestId('model-card').evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')))
    names.push(...labels)
    const next = page.getByTestId('models-next')
    if (!(await next.count()) || (await next.isDisabled())) break
    const before = labels.join('|')
    await next.click()
    try {
      await page.waitForFunction(
        (old) =>
          [...document.querySelectorAll('[data-testid="model-card"]')].map((el) => el.getAttribute('aria-label')).join('|') !==
            old && !document.querySelector('.picker--loading'),
        before,
        { timeout: STEP_TIMEOUT_MS },
      )
    } catch {
      fail('the next page of models did not load')
    }
  }
  return names
}

const state = { contexts: [], adminPage: null, adminErrors: [], modelId: null }

/** A new browser context (a new visitor: no cookies, no storage), closed at the end. */
async function newContext(browser) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  state.contexts.push(context)
  return context
}

const scenarios = [
  [
    'an admin uploads a digital model, sees it as a draft and publishes it',
    async (browser) => {
      const { page, errors } = await openPage(await newContext(browser), '/digital-models')
      state.adminPage = page
      state.adminErrors = errors

      step('log in from the page')
      await expectVisible(page.getByTestId('catalog-login'), 'the log-in prompt')
      await page.getByTestId('catalog-login').getByRole('button', { name: 'Log in' }).click()
      await expectVisible(page.getByTestId('login-modal'), 'the login modal')
      await page.getByTestId('login-email').fill(ADMIN_EMAIL)
      await page.getByTestId('login-password').fill(PASSWORD)
      await page.getByTestId('login-submit').click()
      try {
        await page.getByTestId('login-modal').waitFor({ state: 'hidden', timeout: STEP_TIMEOUT_MS })
      } catch {
        fail('logging in did not close the modal')
      }
      if (new URL(page.url()).pathname !== '/digital-models') fail(`login left the page for ${page.url()}`)
      await expectVisible(page.getByTestId('catalog-tab-model'), 'the Models tab')
      if ((await page.getByTestId('catalog-tab-model').getAttribute('aria-selected')) !== 'true') {
        fail('the Models tab is not the one shown')
      }
      await expectVisible(page.getByTestId('catalog-grid'), 'the list of models')

      step(`upload "${MODEL_NAME}" in "${MODEL_CATEGORY}"`)
      if (await modelCard(page).count()) fail(`a model named "${MODEL_NAME}" is there before the upload`)
      await page.getByTestId('catalog-upload-file').setInputFiles(MODEL_PHOTO)
      await page.getByTestId('catalog-upload-name').fill(MODEL_NAME)
      await page.getByTestId('catalog-upload-category').fill(MODEL_CATEGORY)
      await page.getByTestId('catalog-upload-submit').click()
      try {
        await page.waitForFunction(
          () =>
            document.querySelector('[data-testid="catalog-upload-refusal"]') ||
            !document.querySelector('[data-testid="catalog-upload-submit"]')?.disabled,
          null,
          { timeout: UPLOAD_TIMEOUT_MS },
        )
      } catch {
        fail(`the upload was not answered within ${UPLOAD_TIMEOUT_MS / 1000} s`)
      }
      const refusal = page.getByTestId('catalog-upload-refusal')
      if (await refusal.count()) fail(`the photo was refused: ${(await refusal.innerText()).replace(/\s+/g, ' ')}`)
      await expectVisible(page.getByTestId('toast').filter({ hasText: `"${MODEL_NAME}" was added` }), 'the upload toast')

      step('the new model is a draft, in its category')
      const card = modelCard(page)
      await expectVisible(card, 'the new model in the list')
      if ((await card.count()) !== 1) fail(`${await card.count()} models are named "${MODEL_NAME}"`)
      await expectState(card, 'Draft')
      const shownCategory = (await card.locator('.catalog-item__category').textContent())?.trim()
      if (shownCategory !== STORED_CATEGORY) fail(`the category shown is "${shownCategory}", not "${STORED_CATEGORY}"`)
      state.modelId = await card.getAttribute('data-item-id')
      if (!state.modelId) fail('the new model has no id')
      console.log(`  modelId: ${state.modelId}`)
      await card.scrollIntoViewIfNeeded()
      await screenshot(page, 'catalog-admin-draft')

      step('publish it')
      await card.getByTestId('catalog-publish-toggle').click()
      await expectState(card, 'Published')
      await expectVisible(page.getByTestId('toast').filter({ hasText: `"${MODEL_NAME}" is published.` }), 'the publish toast')
      if ((await card.getByTestId('catalog-publish-toggle').textContent())?.trim() !== 'Unpublish') {
        fail('the button does not offer "Unpublish" once published')
      }
      await screenshot(page, 'catalog-admin-published')
      return errors
    },
  ],
  [
    'a guest finds the new model by its category, picks it and generates',
    async (browser) => {
      if (!state.modelId) fail('no model was uploaded')
      const { page, errors } = await openPage(await newContext(browser), '/')
      await guestToSelectModel(page)

      step(`the "${CHIP_LABEL}" category chip shows the new model alone`)
      const chip = page.getByTestId('model-category').filter({ hasText: CHIP_LABEL })
      await expectVisible(chip, `the "${CHIP_LABEL}" category chip`)
      await chip.click()
      if ((await chip.getAttribute('aria-pressed')) !== 'true') fail('the category chip did not turn on')
      try {
        await page.waitForFunction(
          () => {
            const cards = document.querySelectorAll('[data-testid="model-card"]')
            return cards.length === 1 && !document.querySelector('.picker--loading')
          },
          null,
          { timeout: STEP_TIMEOUT_MS },
        )
      } catch {
        const count = await page.getByTestId('model-card').count()
        fail(`the category shows ${count} models, not the new one alone`)
      }
      const model = page.getByTestId('model-card').first()
      const label = await model.getAttribute('aria-label')
      if (label !== `${MODEL_NAME}, ${CHIP_LABEL}`) fail(`the model in the category is "${label}"`)
      try {
        await page.waitForFunction(
          () => {
            const img = document.querySelector('[data-testid="model-card"] img')
            return img && img.complete && img.naturalWidth > 0
          },
          null,
          { timeout: STEP_TIMEOUT_MS },
        )
      } catch {
        fail("the model's thumbnail did not load")
      }

      step('pick it')
      await model.click()
      if ((await model.getAttribute('aria-pressed')) !== 'true') fail('clicking the model did not select it')
      await expectVisible(page.locator('.flow__status strong').filter({ hasText: MODEL_NAME }), 'the selected model')
      await screenshot(page, 'catalog-guest-picked')
      await clickNext(page)

      step('pick a photo background')
      await expectUrl(page, '/select-background')
      const background = page.locator('[data-testid="background-card"][data-builtin="false"]').first()
      await expectVisible(background, 'a photo background')
      await background.click()
      if ((await background.getAttribute('aria-pressed')) !== 'true') fail('clicking the background did not select it')
      await clickNext(page)

      step('Generate')
      await expectUrl(page, '/generate')
      const generate = page.getByTestId('generate-button')
      await expectVisible(generate, 'the Generate button')
      try {
        await page.waitForFunction(
          () => {
            const b = document.querySelector('[data-testid="generate-button"]')
            return b && !b.disabled
          },
          null,
          { timeout: STEP_TIMEOUT_MS },
        )
      } catch {
        fail('the Generate button stayed disabled')
      }
      await generate.click()

      step(`the result on /output-image (up to ${RESULT_TIMEOUT_MS / 1000} s)`)
      try {
        await page.waitForSelector(
          '[data-testid="output-image"], [data-testid="task-error"], [data-testid="insufficient-credits"], [data-testid="generate-error"]',
          { timeout: RESULT_TIMEOUT_MS },
        )
      } catch {
        const summary = (await page.getByTestId('job-summary').textContent().catch(() => null)) ?? 'no job shown'
        fail(`no result within ${RESULT_TIMEOUT_MS / 1000} s (${summary.trim()})`)
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
      try {
        await page.waitForFunction(
          () => {
            const img = document.querySelector('[data-testid="output-image"]')
            return img && img.complete && img.naturalWidth > 0
          },
          null,
          { timeout: STEP_TIMEOUT_MS },
        )
      } catch {
        fail('the result image did not load')
      }
      await screenshot(page, 'catalog-guest-output')
      return errors
    },
  ],
  [
    'after the admin unpublishes it, a fresh guest no longer sees it',
    async (browser) => {
      const page = state.adminPage
      if (!page || !state.modelId) fail('no model was uploaded')
      const seen = state.adminErrors.length

      step('the admin unpublishes it')
      const card = modelCard(page)
      await expectVisible(card, 'the model in the admin list')
      await card.getByTestId('catalog-publish-toggle').click()
      await expectState(card, 'Draft')
      await expectVisible(
        page.getByTestId('toast').filter({ hasText: `"${MODEL_NAME}" is hidden from the picker.` }),
        'the unpublish toast',
      )

      const { page: guest, errors } = await openPage(await newContext(browser), '/')
      await guestToSelectModel(guest)

      step(`no "${CHIP_LABEL}" chip and no "${MODEL_NAME}" among all models`)
      if (await guest.getByTestId('model-category').filter({ hasText: CHIP_LABEL }).count()) {
        fail(`the "${CHIP_LABEL}" category is still offered`)
      }
      const names = await allModelNames(guest)
      if (!names.length) fail('the picker shows no models at all')
      if (names.some((name) => name?.startsWith(MODEL_NAME))) fail(`"${MODEL_NAME}" is still offered`)
      console.log(`  ${names.length} published models offered, the new one not among them`)
      await screenshot(guest, 'catalog-guest-unpublished')
      return [...state.adminErrors.slice(seen), ...errors]
    },
  ],
]

async function main() {
  for (const file of [MODEL_PHOTO, UPLOAD_IMAGE]) {
    if (!fs.existsSync(file)) {
      console.error(`no such photo: ${file}`)
      process.exit(2)
    }
  }
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true })
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
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
  })
  let passed = 0
  let failed = 0
  try {
    for (const [name, run] of scenarios) {
      console.log(name)
      try {
        const errors = await run(browser)
        if (errors.length) fail(`console errors: ${errors.map((e) => e.slice(0, 300)).join(' | ')}`)
        passed += 1
        console.log(`✓ ${name}`)
      } catch (err) {
        failed += 1
        console.log(`✗ ${name}: ${err instanceof StepError ? err.message : err.stack}`)
        const page = state.contexts.at(-1)?.pages().at(-1)
        if (page) {
          const shot = path.join(SCREENSHOT_DIR, `failure-${failed}.png`)
          await page.screenshot({ path: shot, fullPage: true }).catch(() => {})
          console.log(`    screenshot: ${shot}`)
        }
      }
    }
  } finally {
    for (const context of state.contexts) await context.close().catch(() => {})
    await browser.close()
  }
  console.log(`${passed} passed, ${failed} failed`)
  process.exit(failed ? 1 : 0)
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
