// Browser test of five things customers met (issue 22), one test each, in order:
//  1. a Starter subscriber switches to Pro on /subscription: their plan is marked, the switch
//     dialog shows the charge, the credits and when it applies; confirmed, the sidebar's Credit
//     rises and /billing-info lists the upgrade's invoice (plus screenshots at 1366, 650 and 390
//     px, and the plan cards' "per month" and badges stay on their lines);
//  2. a partner's visitor (/?dbId=DIST9) uploads a photo from a second tab of the same browser;
//  3. an admin's lookup shows a generation its owner deleted: "Deleted", who and when, no images;
//  4. a guest whose network used up today's free guest credits is told so under Generate and
//     offered the sign-up, not "Your balance may not cover this";
//  5. Billing's credit history by custom dates: totals and rows follow the range, a reversed
//     range is refused, Export CSV downloads the range's days.
//
//   BASE_URL=… SUB_EMAIL=… OWNER_EMAIL=… ADMIN_EMAIL=… PASSWORD=… SERVICE_ID=… \
//     UPLOAD_IMAGE=/path/person.jpg SCREENSHOT_DIR=out/customer npx playwright test e2e/customer.spec.ts
//
// The caller prepares the accounts (tests/e2e/test_customer_browser.py: the Starter subscriber,
// the owner's deleted generation, the admin, today's free guest credits used up) and checks the
// server side. Prints "SWITCH <charged> <credits>", "BALANCE <before> <after>", "UPGRADE_ORDER
// <orderId>", "PARTNER_GUEST <fingerprint>", "TOTALS <from> <to> <paid> <free> <spent>
// <refunded>" and "CSV <file> <from> <to>" lines. Five tests.
import path from 'node:path'
import type { Locator, Page } from '@playwright/test'
import {
  BASE_URL,
  clickNext,
  expectHidden,
  expectInPage,
  expectUrl,
  expectVisible,
  fail,
  logIn,
  pickPhotoBackground,
  requireEnv,
  requireFile,
  screenshot,
  screenshotDir,
  step,
  test,
  uploadPhoto,
  creditTotal,
  expectCreditTotal,
} from './support'

const SCREENSHOT_DIR = screenshotDir('out/customer')
const SUB_EMAIL = requireEnv('SUB_EMAIL')
const OWNER_EMAIL = requireEnv('OWNER_EMAIL')
const ADMIN_EMAIL = requireEnv('ADMIN_EMAIL')
const PASSWORD = requireEnv('PASSWORD')
const SERVICE_ID = requireEnv('SERVICE_ID')
const UPLOAD_IMAGE = requireFile('UPLOAD_IMAGE')
const DISTRIBUTOR = process.env.DISTRIBUTOR || 'DIST9'
const WIDTHS = [1366, 650, 390]

// A guest's first calls may meet a 401 before the guest session exists.
const EXPECTED_STATUS = /Failed to load resource: the server responded with a status of 401/

test.use({ failureScreenshotDir: SCREENSHOT_DIR, consoleIgnore: EXPECTED_STATUS })

// ---------------------------------------------------------------------------

/** Logs in on /login and waits to be taken elsewhere. */
async function logInAs(page: Page, email: string): Promise<void> {
  await logIn(page, email, PASSWORD)
  try {
    await page.waitForURL((u) => u.pathname !== '/login', { timeout: 30_000 })
  } catch {
    fail(`logging in as ${email} stayed on /login`)
  }
}

/** Text with its white space squeezed. */
async function textOf(locator: Locator): Promise<string> {
  return ((await locator.first().textContent()) ?? '').replace(/\s+/g, ' ').trim()
}

/**
 * The plan cards' layout at the current width: the price's "per month" sits on the price's line
 * (their boxes share a line, not one under the other) and no badge in a card's header wraps or
 * drops under the plan's name. The problems, in words (none: an empty list).
 */
function planCardLayout(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = []
    /** How many lines the element's text takes. */
    const lines = (el: Element): number => {
      const range = document.createRange()
      range.selectNodeContents(el)
      const tops = new Set<number>()
      for (const rect of range.getClientRects()) if (rect.width > 0) tops.add(Math.round(rect.top))
      return tops.size
    }
    for (const card of document.querySelectorAll<HTMLElement>('[data-testid="plan-card"]')) {
      const name = card.dataset.planName ?? '?'
      const price = card.querySelector<HTMLElement>('[data-testid="plan-price"]')
      const interval = price?.nextElementSibling as HTMLElement | null | undefined
      if (price && interval) {
        const p = price.getBoundingClientRect()
        const i = interval.getBoundingClientRect()
        // On one line the smaller "per month" (baseline-aligned) starts above the price's bottom.
        if (i.top >= p.bottom - 1) {
          problems.push(`${name}: "${interval.textContent}" wrapped under the price (price top ${p.top}, bottom ${p.bottom}; "per month" top ${i.top})`)
        }
        if (lines(interval) > 1) problems.push(`${name}: "${interval.textContent}" wraps onto ${lines(interval)} lines`)
        if (lines(price) > 1) problems.push(`${name}: the price wraps onto ${lines(price)} lines`)
        // Kept on one line, "₹19,999.00 per month" must still fit inside the card's padding.
        const inner = card.getBoundingClientRect().right - parseFloat(getComputedStyle(card).paddingRight)
        if (i.right > inner + 1) problems.push(`${name}: "${interval.textContent}" sticks out of the card by ${Math.round(i.right - inner)}px`)
      }
      const head = card.querySelector('header')
      const title = head?.querySelector('h2')
      const badges = [
        ...(head?.querySelectorAll<HTMLElement>('[data-testid="current-plan"], .chip') ?? []),
        ...card.querySelectorAll<HTMLElement>('[data-testid="plan-recommended"]'),
      ]
      for (const badge of badges) {
        if (lines(badge) > 1) problems.push(`${name}: the badge "${badge.textContent}" wraps onto ${lines(badge)} lines`)
        if (title && head?.contains(badge)) {
          const t = title.getBoundingClientRect()
          const b = badge.getBoundingClientRect()
          if (b.top >= t.bottom - 1) problems.push(`${name}: the badge "${badge.textContent}" dropped under the plan's name`)
        }
      }
    }
    return problems
  })
}

/** Screenshots at each width (the layout checked at each), back at 1366 px afterwards. */
async function shots(page: Page, name: string, checkLayout: boolean): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await page.waitForTimeout(200)
    if (checkLayout) {
      const problems = await planCardLayout(page)
      if (problems.length) fail(`at ${width}px: ${problems.join('; ')}`)
    }
    await screenshot(page, path.join(SCREENSHOT_DIR, `${name}-${width}.png`))
  }
  await page.setViewportSize({ width: 1366, height: 900 })
}

/** A date `days` before today (UTC), as YYYY-MM-DD. */
function utcDay(daysAgo: number): string {
  const now = new Date()
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - daysAgo)).toISOString().slice(0, 10)
}

// ---------------------------------------------------------------------------

test('1. a Starter subscriber switches to Pro on /subscription; Credit rises, Billing lists the invoice', async ({ walk }) => {
  const page = await walk.newPage()
  await page.setViewportSize({ width: 1366, height: 900 })
  step('log in as the Starter subscriber; /subscription marks their plan')
  await logInAs(page, SUB_EMAIL)
  await page.goto(`${BASE_URL}/subscription`, { waitUntil: 'domcontentloaded' })
  await expectVisible(page.getByTestId('plan-card'), 'the plan cards')
  const before = await creditTotal(page)
  const current = page.locator('[data-testid="plan-card"][data-current="true"]')
  if (!(await current.count())) {
    // The subscription is in INR: the page may have opened in the other currency.
    await page.getByTestId('currency-INR').click()
  }
  await expectVisible(current, 'the card of the current plan')
  if ((await current.count()) !== 1) fail(`${await current.count()} cards are marked as the current plan`)
  const currentName = await current.getAttribute('data-plan-name')
  if (currentName !== 'Starter') fail(`the card marked current is "${currentName}", not Starter`)
  const badge = await textOf(current.getByTestId('current-plan'))
  if (badge !== 'Your plan') fail(`the current plan's badge says "${badge}"`)
  const ownButton = current.getByTestId('buy-now')
  if ((await textOf(ownButton)) !== 'Current plan' || !(await ownButton.isDisabled())) {
    fail(`the current plan's button says "${await textOf(ownButton)}" (disabled: ${await ownButton.isDisabled()})`)
  }
  const pro = page.locator('[data-testid="plan-card"][data-plan-name="Pro"]')
  await expectVisible(pro, 'the Pro card')
  const proButton = pro.getByTestId('buy-now')
  if ((await textOf(proButton)) !== 'Switch to Pro') fail(`the Pro card's button says "${await textOf(proButton)}"`)
  await shots(page, 'pricing-current', true)

  step('Switch to Pro: the dialog shows the charge now, the credits now, and when it applies')
  await proButton.click()
  const dialog = page.getByTestId('switch-plan-dialog')
  await expectVisible(dialog, 'the switch dialog')
  const terms = dialog.getByTestId('switch-plan-terms')
  await expectVisible(terms, "the change's terms")
  if ((await terms.getAttribute('data-kind')) !== 'upgrade') fail(`the change is a "${await terms.getAttribute('data-kind')}"`)
  if (await dialog.getByTestId('switch-plan-error').count()) fail(`the dialog says: ${await textOf(dialog.getByTestId('switch-plan-error'))}`)
  const charge = await textOf(dialog.getByTestId('switch-plan-charge'))
  const charged = /^([₹$][\d,]+\.\d\d) \(the difference/.exec(charge)?.[1]
  if (!charged) fail(`"Charged now" says "${charge}"`)
  const creditsText = await textOf(dialog.getByTestId('switch-plan-credits'))
  const creditsNow = Number(/^\+([\d,]+) at once$/.exec(creditsText)?.[1]?.replace(/,/g, ''))
  if (!(creditsNow > 0)) fail(`"Credits now" says "${creditsText}"`)
  const whole = await textOf(terms)
  if (!/starting today/.test(whole)) fail(`the dialog does not say when the change applies: "${whole}"`)
  if (!/per month for [\d,]+ credits/.test(whole)) fail(`the dialog does not say what Pro costs from then on: "${whole}"`)
  await shots(page, 'switch-dialog', false)
  console.log(`SWITCH ${charged} ${creditsNow}`)

  step('Pay and switch → /billing-info; the sidebar Credit rose by the credits shown')
  const confirm = dialog.getByTestId('switch-plan-confirm')
  if ((await textOf(confirm)) !== 'Pay and switch') fail(`the confirm button says "${await textOf(confirm)}"`)
  await confirm.click()
  await expectHidden(dialog, 'the switch dialog', 60_000)
  await expectUrl(page, '/billing-info')
  await expectCreditTotal(page, before + creditsNow, 'after switching to Pro')
  console.log(`BALANCE ${before} ${before + creditsNow}`)

  step('Billing lists the upgrade, paid, for the amount the dialog showed, with its invoice')
  const row = page.getByTestId('billing-payment-row').filter({ hasText: 'Upgrade to Pro' })
  await expectVisible(row, 'the "Upgrade to Pro" payment')
  if ((await row.count()) !== 1) fail(`${await row.count()} "Upgrade to Pro" payments are listed`)
  const amount = await textOf(row.getByTestId('billing-payment-amount'))
  if (amount !== charged) fail(`the payment is for ${amount}, the dialog said ${charged}`)
  const invoice = row.locator('[data-testid^="billing-invoice-"]')
  await expectVisible(invoice, "the upgrade's invoice button")
  const orderId = (await invoice.getAttribute('data-testid'))!.replace('billing-invoice-', '')
  console.log(`UPGRADE_ORDER ${orderId}`)

  step('back on /subscription, Pro is the plan marked')
  await page.goto(`${BASE_URL}/subscription`, { waitUntil: 'domcontentloaded' })
  if (!(await current.count())) {
    await expectVisible(page.getByTestId('plan-card'), 'the plan cards')
    if (!(await current.count())) await page.getByTestId('currency-INR').click()
  }
  await expectVisible(current, 'the card of the current plan')
  if ((await current.getAttribute('data-plan-name')) !== 'Pro') fail(`after the switch "${await current.getAttribute('data-plan-name')}" is marked`)
})

test(`2. a partner's visitor (/?dbId=${DISTRIBUTOR}) uploads from a new tab of the same browser`, async ({ walk }) => {
  const page = await walk.newPage({ path: `/?dbId=${DISTRIBUTOR}` })
  step(`the home page with dbId=${DISTRIBUTOR} starts no guest session (a visit spends no free grant)`)
  await page.locator('#main').waitFor()
  await page.waitForLoadState('networkidle')
  if (await page.evaluate(() => localStorage.getItem('mm:guestToken'))) fail('opening the home page started a guest session')

  step('a new tab of the same browser opens /upload-images (no dbId) and uploads a photo')
  const tab = await page.context().newPage()
  const errors: string[] = []
  tab.on('pageerror', (err) => errors.push(`uncaught: ${err.message}`))
  tab.on('console', (msg) => {
    if (msg.type() === 'error' && !EXPECTED_STATUS.test(msg.text())) errors.push(msg.text())
  })
  await tab.goto(`${BASE_URL}/upload-images`, { waitUntil: 'domcontentloaded' })
  await tab.getByTestId('upload-input').waitFor({ state: 'attached' })
  await uploadPhoto(tab, UPLOAD_IMAGE)
  if (await tab.getByText('This session belongs to another site').count()) fail('the new tab says "This session belongs to another site"')
  step(`the upload started the guest session, and it is ${DISTRIBUTOR}'s`)
  await expectInPage(
    tab,
    (want) => {
      const token = localStorage.getItem('mm:guestToken')
      if (!token) return false
      try {
        const part = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')
        return JSON.parse(atob(part.padEnd(part.length + ((4 - (part.length % 4)) % 4), '='))).did === want
      } catch {
        return false
      }
    },
    DISTRIBUTOR,
    `the guest session the new tab started is not ${DISTRIBUTOR}'s`,
  )
  const fingerprint = await tab.evaluate(() => localStorage.getItem('mm:fingerprint'))
  await screenshot(tab, path.join(SCREENSHOT_DIR, 'partner-new-tab-upload.png'))
  if (errors.length) fail(`errors in the new tab: ${errors.join(' | ')}`)
  console.log(`PARTNER_GUEST ${fingerprint}`)
})

test('3. the operators\' lookup shows a generation its owner deleted: "Deleted", who, when, no images', async ({ walk }) => {
  const page = await walk.newPage()
  step('an admin logs in and looks the deleted generation up on /admin-showcase')
  await logInAs(page, ADMIN_EMAIL)
  await page.goto(`${BASE_URL}/admin-showcase`, { waitUntil: 'domcontentloaded' })
  const input = page.getByTestId('lookup-input')
  await expectVisible(input, 'the lookup field')
  await input.fill(SERVICE_ID)
  await input.press('Enter')
  const card = page.getByTestId(`generation-${SERVICE_ID}`)
  await expectVisible(card, 'the deleted generation in the results')

  step('"Deleted", by whom and when; no images, nothing to attach')
  const deleted = await textOf(card.getByTestId('generation-deleted'))
  if (deleted !== 'Deleted') fail(`the card's status says "${deleted}"`)
  const note = await textOf(card.getByTestId('generation-deleted-note'))
  if (!note.includes(OWNER_EMAIL)) fail(`the note does not name the owner: "${note}"`)
  if (!/ on \S.*\d/.test(note)) fail(`the note does not say when: "${note}"`)
  if (!note.includes(String(new Date().getUTCFullYear())) && !note.includes(String(new Date().getFullYear()))) {
    fail(`the note's date is not this year: "${note}"`)
  }
  if (await card.locator('img').count()) fail(`the deleted generation shows ${await card.locator('img').count()} images`)
  if (await card.getByTestId('attach-edit').count()) fail('the deleted generation offers to attach an edited image')
  if (await card.getByText('Attach edited image').count()) fail('the deleted generation says "Attach edited image"')
  if (await card.locator('[data-testid^="admin-task-"]').count()) fail('the deleted generation lists its images')
  await screenshot(page, path.join(SCREENSHOT_DIR, 'admin-deleted-generation.png'))
})

test("4. a guest after today's free guest credits: told so under Generate and offered the sign-up", async ({ walk }) => {
  const page = await walk.newPage({ path: '/upload-images' })
  step('a fresh browser: upload, a model, a background, on to /generate')
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
  await expectInPage(
    page,
    () => document.querySelector('[data-testid="generate-balance"]')?.textContent?.trim() === '0',
    null,
    'the guest balance is not 0',
  )

  step('under Generate: free guest credits used up, "Sign up free"; not "Your balance may not cover this"')
  const notice = page.getByText("Today's free guest credits are used up on this network")
  await expectVisible(notice, 'the notice that the free guest credits are used up')
  await expectVisible(page.getByText('Create an account to get 10 free credits'), 'the sign-up offer')
  if (await page.getByText('Your balance may not cover this').count()) fail('the page says "Your balance may not cover this"')
  const signUp = page.getByTestId('short-balance-signup')
  await expectVisible(signUp, '"Sign up free"')
  await screenshot(page, path.join(SCREENSHOT_DIR, 'guest-free-used-up.png'))
  await signUp.click()
  await expectUrl(page, '/signup')
})

test('5. Billing → credit history by custom dates: totals and rows follow, a reversed range is refused, CSV', async ({ walk }) => {
  const page = await walk.newPage()
  step('log in as the owner; /billing-info, Custom dates')
  await logInAs(page, OWNER_EMAIL)
  await page.goto(`${BASE_URL}/billing-info`, { waitUntil: 'domcontentloaded' })
  const section = page.getByTestId('billing-credits')
  await expectVisible(section.getByTestId('billing-credit-totals'), 'the credit totals')
  await section.getByTestId('billing-credits-range').selectOption({ label: 'Custom dates' })
  const from = section.getByTestId('billing-credits-from')
  const to = section.getByTestId('billing-credits-to')
  await expectVisible(from, 'the From date')

  const totals = async () => ({
    paid: Number(await textOf(section.getByTestId('billing-total-paid'))),
    free: Number(await textOf(section.getByTestId('billing-total-free'))),
    spent: Number(await textOf(section.getByTestId('billing-total-spent'))),
    refunded: Number(await textOf(section.getByTestId('billing-total-refunded'))),
  })
  /** Waits until the totals shown are `want` (JSON-equal). */
  const expectTotals = async (want: Record<string, number>, what: string) => {
    const deadline = Date.now() + 20_000
    let seen = await totals()
    while (JSON.stringify(seen) !== JSON.stringify(want) && Date.now() < deadline) {
      await page.waitForTimeout(200)
      seen = await totals()
    }
    if (JSON.stringify(seen) !== JSON.stringify(want)) fail(`${what}: the totals are ${JSON.stringify(seen)}, not ${JSON.stringify(want)}`)
  }

  const start = utcDay(6)
  const today = utcDay(0)
  const yesterday = utcDay(1)
  step(`${start} to ${today}: the sign-up's free credits and the generation's charge`)
  await from.fill(start)
  await to.fill(today)
  const rows = section.getByTestId('billing-credit-row')
  await expectVisible(rows, 'the credit movements')
  await page.waitForTimeout(500)
  const withUsage = await totals()
  if (!(withUsage.free > 0 && withUsage.spent > 0)) fail(`the totals of the week are ${JSON.stringify(withUsage)}`)
  const rowCount = await rows.count()
  // The chart follows the range: its seven days, from the first to the last.
  const chart = section.getByTestId('billing-credits-chart')
  await expectVisible(chart, 'the usage chart')
  const drawn = [await chart.getAttribute('data-days'), await chart.getAttribute('data-first'), await chart.getAttribute('data-last')]
  if (drawn.join() !== ['7', start, today].join()) fail(`the chart draws ${drawn.join(' ')}, not 7 days ${start} to ${today}`)
  await screenshot(page, path.join(SCREENSHOT_DIR, 'credit-history-week.png'))

  step(`${start} to ${yesterday}: nothing happened then, the totals are 0 and no rows`)
  await to.fill(yesterday)
  await expectVisible(section.getByTestId('billing-credits-empty'), '"No credit movements in this period."')
  await expectTotals({ paid: 0, free: 0, spent: 0, refunded: 0 }, `${start} to ${yesterday}`)
  if (await rows.count()) fail(`${await rows.count()} rows shown for a range without movements`)
  if (await section.getByTestId('billing-credits-chart').count()) fail('a chart is drawn for a range without usage')

  step('from after to: the message, and the range shown stays the last good one')
  await from.fill(today)
  const problem = section.getByTestId('billing-credits-range-problem')
  await expectVisible(problem, 'the message about the reversed range')
  const said = await textOf(problem)
  if (said !== 'The start date is after the end date.') fail(`the reversed range says "${said}"`)
  await expectTotals({ paid: 0, free: 0, spent: 0, refunded: 0 }, 'while the range is reversed')
  await screenshot(page, path.join(SCREENSHOT_DIR, 'credit-history-reversed.png'))

  step(`back to ${start} to ${today}: the message goes, the totals and rows come back`)
  await to.fill(today)
  await from.fill(start)
  await expectHidden(problem, 'the message about the reversed range')
  await expectTotals(withUsage, `${start} to ${today} again`)
  await expectVisible(rows, 'the credit movements')
  if ((await rows.count()) !== rowCount) fail(`${await rows.count()} rows now, ${rowCount} before`)
  console.log(`TOTALS ${start} ${today} ${withUsage.paid} ${withUsage.free} ${withUsage.spent} ${withUsage.refunded}`)

  step('Export CSV downloads the days of the range')
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 30_000 }),
    section.getByTestId('billing-credits-csv').click(),
  ])
  const name = download.suggestedFilename()
  if (name !== `credit-usage-${start}-to-${today}.csv`) fail(`the CSV is named "${name}"`)
  const file = path.join(SCREENSHOT_DIR, name)
  await download.saveAs(file)
  console.log(`CSV ${file} ${start} ${today}`)
})
