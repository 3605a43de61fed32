// Browser walk of Content Credentials as people see them (issue 37 item 4 and 5):
//
//   BASE_URL=http://127.0.0.1:8000 USER_EMAIL=a@example.com USER_PASSWORD=secret SERVICE_ID=… \
//   UNSIGNED_IMAGE=/path/photo.jpg npx playwright test e2e/content-credentials.spec.ts
//
// The account must exist and own SERVICE_ID, a finished background replace on "white" of one
// photo (tests/e2e/test_content_credentials_browser.py makes it through the public API).
//  1. the output page's tile shows "Content Credentials: AI-generated with MetaModel";
//  2. the viewer shows the same line; Enter on it opens the details: what was done, the uploaded
//     photo by its hash and the background by its name, the development signer with its note;
//     axe finds nothing in the viewer with the details open;
//  3. the image downloaded from the viewer, checked on /verify, carries "valid Content
//     Credentials from MetaModel" and names the generation; an unsigned photo carries none;
//     axe finds nothing on /verify with the answer shown;
//  4. at 390 px, the output page's tile and the viewer keep the line and its opened details
//     inside the window, without sideways scrolling.
// Prints "DOWNLOADED <path>" and "VERIFIED <generationId>" for the caller to check.
// Screenshots (SCREENSHOT_DIR): credentials-viewer.png, verify-verified.png, verify-none.png,
// credentials-tile-390.png, credentials-viewer-390.png.
import { createRequire } from 'node:module'
import path from 'node:path'
import type { Page } from '@playwright/test'
import {
  BASE_URL,
  STEP_TIMEOUT_MS,
  expect,
  expectInPage,
  expectVisible,
  fail,
  logIn,
  overflowOf,
  requireEnv,
  requireFile,
  screenshot,
  screenshotDir,
  step,
  test,
} from './support'

const USER_EMAIL = requireEnv('USER_EMAIL')
const USER_PASSWORD = requireEnv('USER_PASSWORD')
const SERVICE_ID = requireEnv('SERVICE_ID')
const UNSIGNED_IMAGE = requireFile('UNSIGNED_IMAGE')
const SCREENSHOT_DIR = screenshotDir('e2e-screenshots')
const LINE = 'Content Credentials: AI-generated with MetaModel'
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js')
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']

test.use({ failureScreenshotDir: SCREENSHOT_DIR })
test.describe.configure({ timeout: 4 * 60_000 })

type AxeViolation = { id: string; help: string; nodes: { target: unknown[] }[] }

/** Fails with axe's violations (WCAG 2.1 A/AA and best practices) inside `selector`. */
async function expectNoAxeViolations(page: Page, selector: string, where: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE })
  const violations = (await page.evaluate(
    async ({ selector, tags }) => {
      const axe = (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<{ violations: unknown[] }> } }).axe
      const result = await axe.run({ include: [[selector]] }, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] })
      return result.violations
    },
    { selector, tags: AXE_TAGS },
  )) as AxeViolation[]
  if (violations.length) {
    const lines = violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')})`)
    fail(`axe in ${where}:\n${lines.join('\n')}`)
  }
}

test('Content Credentials in the viewer, and the downloaded image checked on /verify', async ({ walk }) => {
  const page = await walk.newPage()

  step('log in and open the generation’s output page')
  await logIn(page, USER_EMAIL, USER_PASSWORD)
  await expectInPage(page, () => Boolean(localStorage.getItem('mm:token')), null, 'no session after logging in')
  await page.goto(`${BASE_URL}/output-image?serviceId=${encodeURIComponent(SERVICE_ID)}`, { waitUntil: 'domcontentloaded' })
  const tile = page.getByTestId('output-item').first()
  await expectVisible(tile, 'the finished image')
  await expect(tile.getByTestId('content-credentials'), 'the tile’s credentials line').toContainText(LINE)

  step('the viewer shows the line; Enter opens the details')
  await tile.getByTestId('output-open').click()
  const viewer = page.getByTestId('output-viewer')
  await expectVisible(viewer, 'the viewer')
  const toggle = viewer.getByRole('button', { name: new RegExp(LINE) })
  await expectVisible(toggle, `"${LINE}" in the viewer`)
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  await toggle.focus()
  await page.keyboard.press('Enter')
  await expect(toggle, 'the line after Enter').toHaveAttribute('aria-expanded', 'true')
  const details = viewer.getByTestId('credentials-details')
  await expectVisible(details, 'the credentials’ details')
  await expect(details.getByTestId('credentials-action')).toHaveText('Edited: composite with AI-generated content')
  await expect(details.getByTestId('credentials-ingredients')).toContainText(/Uploaded photo: SHA-256 [0-9a-f]{8}…[0-9a-f]{4}/)
  await expect(details.getByTestId('credentials-ingredients')).toContainText('Background: Pure white')
  await expect(details.getByTestId('credentials-signer')).toContainText('MetaModel development (untrusted)')
  await expect(details.getByTestId('credentials-development')).toHaveText(
    'Development credentials: valid, but not trusted outside this installation',
  )
  await expect(details.getByTestId('credentials-engine')).not.toBeEmpty()
  await expect(details.getByRole('link', { name: 'Check an image' })).toHaveAttribute('href', '/verify')
  await expectNoAxeViolations(page, '[data-testid="output-viewer"]', 'the viewer with the credentials open')
  await screenshot(page, path.join(SCREENSHOT_DIR, 'credentials-viewer.png'))

  step('download the image from the viewer')
  const downloading = page.waitForEvent('download', { timeout: STEP_TIMEOUT_MS })
  await viewer.getByTestId('viewer-actions').getByTestId('download-button').first().click()
  const download = await downloading
  const file = path.join(SCREENSHOT_DIR, download.suggestedFilename())
  await download.saveAs(file)
  console.log(`DOWNLOADED ${file}`)
  await page.keyboard.press('Escape')

  step('/verify says the downloaded file carries valid Content Credentials from MetaModel')
  await page.goto(`${BASE_URL}/verify`, { waitUntil: 'domcontentloaded' })
  await expectVisible(page.getByRole('heading', { level: 1, name: 'Check an image' }), 'the /verify page')
  await page.getByTestId('verify-input').setInputFiles(file)
  const message = page.getByTestId('verify-message')
  await expect(message, 'the verdict').toContainText('valid Content Credentials from MetaModel')
  await expect(page.getByTestId('verify-result')).toHaveAttribute('data-verdict', 'verified')
  const generationId = (await page.getByTestId('verify-generation-id').textContent())?.trim() ?? ''
  if (!generationId) fail('/verify named no generation')
  console.log(`VERIFIED ${generationId}`)
  const found = page.getByTestId('verify-credentials')
  await expect(found.getByTestId('credentials-details')).toBeVisible()
  await expect(found.getByTestId('credentials-signer')).toContainText('MetaModel development (untrusted)')
  await expectNoAxeViolations(page, 'main', '/verify with a verified image')
  await screenshot(page, path.join(SCREENSHOT_DIR, 'verify-verified.png'))

  step('/verify says an unsigned photo carries none')
  await page.getByTestId('verify-input').setInputFiles(UNSIGNED_IMAGE)
  await expect(page.getByTestId('verify-result')).toHaveAttribute('data-verdict', 'none')
  await expect(message).toContainText('no Content Credentials')
  await expect(page.getByTestId('verify-credentials')).toHaveCount(0)
  await expect(page.getByTestId('verify-ids')).toHaveCount(0)
  await screenshot(page, path.join(SCREENSHOT_DIR, 'verify-none.png'))

  step('390 px: the tile and the viewer keep the opened credentials inside the window')
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto(`${BASE_URL}/output-image?serviceId=${encodeURIComponent(SERVICE_ID)}`, { waitUntil: 'domcontentloaded' })
  const phoneTile = page.getByTestId('output-item').first()
  await phoneTile.getByTestId('credentials-toggle').click()
  await expectVisible(phoneTile.getByTestId('credentials-details'), 'the tile’s opened details')
  const overflow = await overflowOf(page)
  if (overflow > 1) fail(`the output page is ${overflow} px wider than a 390 px window with the details open`)
  await phoneTile.screenshot({ path: path.join(SCREENSHOT_DIR, 'credentials-tile-390.png') })
  await phoneTile.getByTestId('output-open').click()
  await expectVisible(viewer, 'the viewer at 390 px')
  await viewer.getByTestId('credentials-toggle').click()
  const phoneDetails = viewer.getByTestId('credentials-details')
  await expectVisible(phoneDetails, 'the viewer’s opened details at 390 px')
  for (const [what, locator] of [['the line', viewer.getByTestId('credentials-toggle')], ['the details', phoneDetails]] as const) {
    const box = await locator.boundingBox()
    if (!box || box.x < 0 || box.x + box.width > 390 + 1) fail(`${what} at ${JSON.stringify(box)}: outside a 390 px window`)
  }
  const sideways = await phoneDetails.evaluate((el) => el.scrollWidth - el.clientWidth)
  if (sideways > 1) fail(`the viewer's details scroll ${sideways} px sideways at 390 px`)
  await screenshot(page, path.join(SCREENSHOT_DIR, 'credentials-viewer-390.png'))
})
