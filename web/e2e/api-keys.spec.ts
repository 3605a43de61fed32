// Browser test of User Setting's API keys (issue 23), one test: a signed-up user opens User
// Setting and creates the key "Catalog sync"; its secret, shown once, is read from the panel
// (no page wider than the window at 390 px while it is open); with that secret the spec itself
// (Node's fetch, as a program would) uploads a photo to POST /api/v1/uploads, starts a
// generation with POST /api/v1/generations and polls GET /api/v1/generations/{id} until it is
// completed; reloaded, the key's row says "Last used", not "Never used"; a test key is created
// and its row is marked "Test"; the first key is revoked (Revoke, then "Yes, revoke") and a
// request with it is answered 401, while the test key still works. Screenshots at each stage.
// Webhooks: before the generation, a webhook endpoint for WEBHOOK_URL (every event) is added in
// User Setting → Webhooks and its signing secret read from the panel; after it, the endpoint's
// delivery log is refreshed until a delivery "succeeded" with HTTP 200 is listed (60 s at most).
//
//   BASE_URL=… USER_EMAIL=… PASSWORD=… UPLOAD_IMAGE=/path/photo.jpg WEBHOOK_URL=http://… \
//     SCREENSHOT_DIR=out/api-keys npx playwright test e2e/api-keys.spec.ts
//
// The caller (tests/e2e/test_api_keys_browser.py) signs the user up, runs the receiver at
// WEBHOOK_URL and checks the server side. Prints "LIVE_KEY <prefix…last4>", "TEST_KEY <prefix…last4>",
// "GENERATION <id> <status>", "WEBHOOK_SECRET <whsec_…>" and, for each delivery row shown at the
// end, "WEBHOOK_DELIVERY <msg_id> <eventType> <statusCode>" ("-" when there is no status code).
import fs from 'node:fs'
import path from 'node:path'
import type { Locator, Page } from '@playwright/test'
import {
  BASE_URL,
  expectHidden,
  expectVisible,
  expect,
  fail,
  logIn,
  requireEnv,
  requireFile,
  screenshot,
  screenshotDir,
  step,
  test,
} from './support'

const SCREENSHOT_DIR = screenshotDir('out/api-keys')
const USER_EMAIL = requireEnv('USER_EMAIL')
const PASSWORD = requireEnv('PASSWORD')
const UPLOAD_IMAGE = requireFile('UPLOAD_IMAGE')
const WEBHOOK_URL = requireEnv('WEBHOOK_URL')
const WEBHOOK_EVENTS = ['generation.completed', 'generation.failed', 'task.completed'] as const
const DELIVERY_TIMEOUT_MS = 60_000
const LIVE_NAME = 'Catalog sync'
const TEST_NAME = 'Catalog test'
const NARROW = { width: 390, height: 844 }
const GENERATION_TIMEOUT_MS = 180_000

// A visitor's first calls may meet a 401 before its session exists.
const EXPECTED_STATUS = /Failed to load resource: the server responded with a status of 401/

test.use({ failureScreenshotDir: SCREENSHOT_DIR, consoleIgnore: EXPECTED_STATUS })

// ---------------------------------------------------------------------------
// The public API, called as a program would: Node's fetch with the key as a bearer token.

type Answer = { status: number; body: { data?: Record<string, unknown>; [k: string]: unknown } }

async function callApi(secret: string, method: string, route: string, body?: FormData | object): Promise<Answer> {
  const headers: Record<string, string> = { Authorization: `Bearer ${secret}` }
  let payload: FormData | string | undefined
  if (body instanceof FormData) payload = body
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json'
    payload = JSON.stringify(body)
  }
  const response = await fetch(`${BASE_URL}${route}`, { method, headers, body: payload })
  const text = await response.text()
  try {
    return { status: response.status, body: JSON.parse(text) as Answer['body'] }
  } catch {
    return { status: response.status, body: { text } }
  }
}

function expectStatus(answer: Answer, status: number, what: string): Record<string, unknown> {
  if (answer.status !== status) fail(`${what} answered ${answer.status}, not ${status}: ${JSON.stringify(answer.body).slice(0, 500)}`)
  return answer.body.data ?? {}
}

/** Uploads the photo, starts a background replace, waits for it to finish: its id and status. */
async function generateWith(secret: string): Promise<{ id: string; status: string }> {
  const form = new FormData()
  form.append('file', new Blob([fs.readFileSync(UPLOAD_IMAGE)], { type: 'image/jpeg' }), path.basename(UPLOAD_IMAGE))
  const uploaded = expectStatus(await callApi(secret, 'POST', '/api/v1/uploads', form), 201, 'POST /api/v1/uploads')
  const key = String(uploaded.key ?? '')
  if (!key) fail(`POST /api/v1/uploads gave no key: ${JSON.stringify(uploaded)}`)
  const created = expectStatus(
    await callApi(secret, 'POST', '/api/v1/generations', { service: 'burstreplace', inputs: [key], backgroundId: 'white' }),
    201,
    'POST /api/v1/generations',
  )
  const id = String(created.id ?? '')
  if (!id) fail(`POST /api/v1/generations gave no id: ${JSON.stringify(created)}`)
  const deadline = Date.now() + GENERATION_TIMEOUT_MS
  let status = String(created.status)
  while (Date.now() < deadline) {
    const seen = expectStatus(await callApi(secret, 'GET', `/api/v1/generations/${id}`), 200, `GET /api/v1/generations/${id}`)
    status = String(seen.status)
    if (status === 'completed') return { id, status }
    if (status === 'failed' || status === 'cancelled') fail(`the generation ${id} ended ${status}: ${JSON.stringify(seen).slice(0, 500)}`)
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
  fail(`the generation ${id} was still ${status} after ${GENERATION_TIMEOUT_MS / 1000} s`)
}

// ---------------------------------------------------------------------------
// The page

/** Text with its white space squeezed. */
async function textOf(locator: Locator): Promise<string> {
  return ((await locator.first().textContent()) ?? '').replace(/\s+/g, ' ').trim()
}

/** The key's row in the list (by its name). */
function rowOf(page: Page, name: string): Locator {
  return page.getByTestId('api-key-row').filter({ hasText: name })
}

/** Creates a key on User Setting and reads its secret from the panel (left open). */
async function createKey(page: Page, name: string, testMode: boolean): Promise<string> {
  const section = page.getByTestId('api-keys')
  await section.getByTestId('api-key-name').fill(name)
  const box = section.getByTestId('api-key-test-mode')
  if (testMode) await box.check()
  else await box.uncheck()
  await section.getByTestId('api-key-create').click()
  const panel = section.getByTestId('api-key-secret-panel')
  await expectVisible(panel, `the secret panel of "${name}"`)
  if (!(await textOf(panel)).includes(name)) fail(`the secret panel does not name "${name}": ${await textOf(panel)}`)
  const secret = await textOf(panel.getByTestId('api-key-secret'))
  const prefix = testMode ? 'mm_test_' : 'mm_live_'
  if (!secret.startsWith(prefix) || secret.length < prefix.length + 20) fail(`the panel's secret is not a ${prefix} key: "${secret}"`)
  await expectVisible(rowOf(page, name), `the row of "${name}"`)
  return secret
}

/** The row's masked key ("mm_live_…abcd"), checked against the secret. */
async function maskOf(page: Page, name: string, secret: string): Promise<string> {
  const mask = await textOf(rowOf(page, name).locator('code'))
  const [prefix, last4] = mask.split('…')
  if (!prefix || !last4 || !secret.startsWith(prefix) || !secret.endsWith(last4)) {
    fail(`the row of "${name}" shows "${mask}", which is not the secret's start and end`)
  }
  if (mask.includes(secret)) fail(`the row of "${name}" shows the whole secret`)
  return mask
}

/** The page's horizontal overflow, in px (0: none). */
function overflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
}

async function openUserSetting(page: Page): Promise<void> {
  await page.goto(`${BASE_URL}/user-setting`, { waitUntil: 'load' })
  await expectVisible(page.getByTestId('api-keys'), 'the API keys section of User Setting')
}

// ---------------------------------------------------------------------------
// Webhooks

/** The endpoint's row in User Setting → Webhooks (by its URL). */
function endpointRow(page: Page, url: string): Locator {
  return page.getByTestId('webhook-row').filter({ hasText: url })
}

/** Adds an endpoint for `url` with every event (the boxes' default) and reads its signing secret. */
async function addEndpoint(page: Page, url: string): Promise<string> {
  const section = page.getByTestId('webhooks')
  await expectVisible(section, 'the Webhooks section of User Setting')
  await section.scrollIntoViewIfNeeded()
  await section.getByLabel('Endpoint URL').fill(url)
  for (const event of WEBHOOK_EVENTS) {
    const box = section.getByRole('checkbox', { name: event })
    if (!(await box.isChecked())) fail(`the event box "${event}" is not checked by default`)
  }
  await section.getByRole('button', { name: 'Add endpoint' }).click()
  const panel = section.getByTestId('webhook-secret-panel')
  await expectVisible(panel, 'the signing secret panel of the new endpoint')
  const secret = await textOf(panel.getByTestId('webhook-secret'))
  if (!secret.startsWith('whsec_') || secret.length < 'whsec_'.length + 20) fail(`the panel's secret is not a whsec_ secret: "${secret}"`)
  const row = endpointRow(page, url)
  await expectVisible(row, `the row of the endpoint ${url}`)
  const shown = await textOf(row)
  if (!shown.includes('Enabled')) fail(`the new endpoint's row is not marked Enabled: ${shown}`)
  for (const event of WEBHOOK_EVENTS) if (!shown.includes(event)) fail(`the new endpoint's row does not list ${event}: ${shown}`)
  if (shown.includes(secret)) fail("the endpoint's row shows its secret")
  return secret
}

type DeliveryRow = { id: string; eventType: string; status: string; statusCode: string }

/** The delivery rows the log shows now, from their data attributes. */
function deliveryRows(log: Locator): Promise<DeliveryRow[]> {
  return log.getByTestId('webhook-delivery-row').evaluateAll((rows) =>
    rows.map((row) => ({
      id: row.getAttribute('data-delivery-id') ?? '',
      eventType: row.getAttribute('data-event-type') ?? '',
      status: row.getAttribute('data-status') ?? '',
      statusCode: row.getAttribute('data-status-code') ?? '',
    })),
  )
}

/** Clicks Refresh until the generation.completed delivery succeeded with HTTP 200 and none is
 *  still pending (or, when the time is up, at least one delivery succeeded with HTTP 200): the
 *  rows shown then. */
async function waitForDelivery(log: Locator): Promise<DeliveryRow[]> {
  const refresh = log.getByRole('button', { name: 'Refresh' })
  const deadline = Date.now() + DELIVERY_TIMEOUT_MS
  for (;;) {
    await expect(refresh, 'the Refresh button stayed disabled').toBeEnabled({ timeout: 15_000 })
    const rows = await deliveryRows(log)
    const ok = rows.filter((row) => row.status === 'succeeded' && row.statusCode === '200')
    const succeeded = ok.length > 0
    // task.completed may be delivered before generation.completed is queued: wait for both.
    const finished = ok.some((row) => row.eventType === 'generation.completed')
    if (finished && !rows.some((row) => row.status === 'pending')) return rows
    if (Date.now() > deadline) {
      if (succeeded) return rows
      fail(`no delivery succeeded with HTTP 200 within ${DELIVERY_TIMEOUT_MS / 1000} s: ${JSON.stringify(rows)}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 2000))
    await refresh.click()
  }
}

// ---------------------------------------------------------------------------

test('a key made in User Setting runs a generation, is marked used, and stops working once revoked', async ({ walk }) => {
  test.setTimeout(GENERATION_TIMEOUT_MS + DELIVERY_TIMEOUT_MS + 240_000)
  const page = await walk.newPage()
  const shot = (name: string) => screenshot(page, path.join(SCREENSHOT_DIR, `${name}.png`))

  step('log in and open User Setting')
  await logIn(page, USER_EMAIL, PASSWORD)
  try {
    await page.waitForURL((u) => u.pathname !== '/login', { timeout: 30_000 })
  } catch {
    fail(`logging in as ${USER_EMAIL} stayed on /login`)
  }
  await openUserSetting(page)
  await expectVisible(page.getByTestId('api-keys-empty'), '"You have no API keys yet."')
  await shot('api-keys-empty-1280')

  step(`create the key "${LIVE_NAME}" and read its secret`)
  const live = await createKey(page, LIVE_NAME, false)
  const liveRow = rowOf(page, LIVE_NAME)
  if (!(await textOf(liveRow)).includes('Never used')) fail(`the new key's row does not say "Never used": ${await textOf(liveRow)}`)
  if ((await textOf(liveRow)).includes('Test')) fail(`the live key's row is marked Test: ${await textOf(liveRow)}`)
  console.log(`LIVE_KEY ${await maskOf(page, LIVE_NAME, live)}`)
  await shot('api-key-secret-1280')

  step('at 390 px the page with the secret panel open is no wider than the window')
  await page.setViewportSize(NARROW)
  await page.getByTestId('api-key-secret-panel').scrollIntoViewIfNeeded()
  const wider = await overflow(page)
  if (wider > 0) fail(`at 390 px, with the secret panel open, the page is ${wider}px wider than the window`)
  await shot('api-key-secret-390')
  await page.setViewportSize({ width: 1280, height: 900 })

  step('Done hides the secret')
  await page.getByTestId('api-key-dismiss').click()
  await expectHidden(page.getByTestId('api-key-secret-panel'), 'the secret panel')
  if ((await page.content()).includes(live)) fail('the secret is still in the page after Done')

  step(`add a webhook endpoint for ${WEBHOOK_URL} (every event) and read its signing secret`)
  const webhookSecret = await addEndpoint(page, WEBHOOK_URL)
  console.log(`WEBHOOK_SECRET ${webhookSecret}`)
  await page.getByTestId('webhook-secret-panel').scrollIntoViewIfNeeded()
  await shot('webhook-secret-1280')
  await page.setViewportSize(NARROW)
  await page.getByTestId('webhook-secret-panel').scrollIntoViewIfNeeded()
  const widerHook = await overflow(page)
  if (widerHook > 0) fail(`at 390 px, with the webhook secret panel open, the page is ${widerHook}px wider than the window`)
  await shot('webhook-secret-390')
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.getByTestId('webhook-dismiss').click()
  await expectHidden(page.getByTestId('webhook-secret-panel'), 'the webhook secret panel')
  if ((await page.content()).includes(webhookSecret)) fail('the signing secret is still in the page after Done')

  step('with the key, upload a photo and generate through the public API')
  const generation = await generateWith(live)
  console.log(`GENERATION ${generation.id} ${generation.status}`)

  step('reloaded, the key is marked as used')
  await openUserSetting(page)
  await expectVisible(liveRow, `the row of "${LIVE_NAME}"`)
  const used = await textOf(liveRow)
  if (!used.includes('Last used') || used.includes('Never used')) fail(`after the generation the row says: ${used}`)
  await shot('api-key-used-1280')

  step("open the endpoint's deliveries and refresh until one succeeded with HTTP 200")
  const hookRow = endpointRow(page, WEBHOOK_URL)
  await expectVisible(hookRow, `the row of the endpoint ${WEBHOOK_URL}`)
  const toggle = hookRow.getByRole('button', { name: 'Deliveries' })
  await toggle.click()
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') fail('the Deliveries button does not say it is expanded')
  const log = hookRow.getByRole('region', { name: /^Deliveries to / })
  await expectVisible(log, 'the delivery log')
  const deliveries = await waitForDelivery(log)
  for (const delivery of deliveries) {
    console.log(`WEBHOOK_DELIVERY ${delivery.id} ${delivery.eventType} ${delivery.statusCode || '-'}`)
  }
  const succeededRow = log.locator('[data-testid="webhook-delivery-row"][data-status="succeeded"][data-status-code="200"]').first()
  const succeededText = await textOf(succeededRow)
  if (!succeededText.includes('Succeeded') || !succeededText.includes('200')) fail(`the succeeded delivery's row says: ${succeededText}`)
  await log.scrollIntoViewIfNeeded()
  await shot('webhook-deliveries-1280')
  await page.setViewportSize(NARROW)
  await log.scrollIntoViewIfNeeded()
  const widerLog = await overflow(page)
  if (widerLog > 0) fail(`at 390 px, with the delivery log open, the page is ${widerLog}px wider than the window`)
  await shot('webhook-deliveries-390')
  await page.setViewportSize({ width: 1280, height: 900 })

  step(`create the test key "${TEST_NAME}"`)
  const testKey = await createKey(page, TEST_NAME, true)
  const testRow = rowOf(page, TEST_NAME)
  if (!(await textOf(testRow)).includes('Test')) fail(`the test key's row is not marked Test: ${await textOf(testRow)}`)
  console.log(`TEST_KEY ${await maskOf(page, TEST_NAME, testKey)}`)
  await page.getByTestId('api-key-dismiss').click()
  await expectHidden(page.getByTestId('api-key-secret-panel'), 'the secret panel')
  await shot('api-keys-two-1280')

  step(`revoke "${LIVE_NAME}"`)
  await liveRow.getByTestId('api-key-revoke').click()
  const confirm = liveRow.getByTestId('api-key-revoke-confirm')
  await expectVisible(confirm, 'the "Yes, revoke" button')
  if (!(await textOf(confirm)).includes('Yes, revoke')) fail(`the confirm button says "${await textOf(confirm)}"`)
  await shot('api-key-revoke-confirm-1280')
  await confirm.click()
  await expectHidden(liveRow, `the row of "${LIVE_NAME}"`)
  await expectVisible(testRow, `the row of "${TEST_NAME}"`)

  step('the revoked key is refused; the test key still works')
  const refused = await callApi(live, 'GET', `/api/v1/generations/${generation.id}`)
  if (refused.status !== 401) fail(`a request with the revoked key answered ${refused.status}, not 401`)
  expectStatus(await callApi(testKey, 'GET', '/api/v1/credits'), 200, 'GET /api/v1/credits with the test key')
  await page.setViewportSize(NARROW)
  const narrow = await overflow(page)
  if (narrow > 0) fail(`at 390 px the page is ${narrow}px wider than the window`)
  await shot('api-keys-revoked-390')
})
