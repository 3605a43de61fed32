// Browser test of accounts: sign-up, login errors, validation, remember me,
// forced logout on a 401, and renewal of an expired token with the refresh cookie.
//
//   BASE_URL=http://127.0.0.1:8000 MAIL_CODE_COMMAND='python tests/support/mail_code.py SPOOL' npm run test:e2e:accounts
//
// Env: BASE_URL (default http://127.0.0.1:8000); MAIL_CODE_COMMAND (required), a
// shell command that prints the latest 6-digit code mailed to the address given
// as its first argument; SCREENSHOT_DIR (default ./e2e-screenshots, failures
// only); CHROMIUM_PATH (default /usr/bin/chromium).
// Each test runs in a fresh browser context, with one account made per run (the first test
// signs it up; the others make it on /signup when it did not, e.g. after it failed).
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import type { Page } from '@playwright/test'
import {
  BASE_URL,
  STEP_TIMEOUT_MS,
  expectHidden,
  expectInPage,
  expectUrl,
  expectVisible,
  fail,
  logIn,
  requireEnv,
  screenshotDir,
  step,
  test,
  type Walk,
} from './support'

const MAIL_CODE_COMMAND = requireEnv('MAIL_CODE_COMMAND')
const MAIL_TIMEOUT_MS = 30_000

const EMAIL = `e2e-${Date.now()}@example.com`
const PASSWORD = 'correct-horse-42'
const NAME = 'E2E Tester'

const run = promisify(execFile)

test.use({ failureScreenshotDir: screenshotDir('e2e-screenshots'), logConsole: true })

/** Waits for a toast with exactly this text (after trimming). */
async function expectToast(page: Page, text: string): Promise<void> {
  const toast = page.getByTestId('toast').filter({ hasText: text })
  try {
    await toast.first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS })
  } catch {
    const shown = await page.getByTestId('toast').allInnerTexts()
    fail(`no toast "${text}" (toasts shown: ${shown.length ? shown.map((t) => `"${t.trim()}"`).join(', ') : 'none'})`)
  }
  const role = await page.getByTestId('toaster').getAttribute('role')
  if (role !== 'status') fail(`the toast container has role="${role}", expected "status"`)
}

async function expectCreditBalance(page: Page): Promise<string | undefined> {
  await expectInPage(
    page,
    () => /\d/.test(document.querySelector('[data-testid="credit-total"]')?.textContent ?? ''),
    null,
    'the sidebar Credit entry never showed a balance',
  )
  return (await page.getByTestId('credit-total').first().textContent())?.trim()
}

/** Runs MAIL_CODE_COMMAND until it prints a 6-digit code other than `previous`. */
async function mailedCode(email: string, previous: string | null = null): Promise<string> {
  const deadline = Date.now() + MAIL_TIMEOUT_MS
  let last = ''
  while (Date.now() < deadline) {
    try {
      const { stdout } = await run('sh', ['-c', `${MAIL_CODE_COMMAND} "$1"`, 'sh', email], { timeout: 10_000 })
      const code = /\b(\d{6})\b/.exec(stdout)?.[1]
      if (code && code !== previous) return code
      last = stdout.trim()
    } catch (err) {
      const failed = err as { stderr?: string; message?: string }
      last = (failed.stderr || failed.message || '').toString().trim()
    }
    await new Promise((r) => setTimeout(r, 500))
  }
  fail(`no code mailed to ${email} within ${MAIL_TIMEOUT_MS / 1000} s (MAIL_CODE_COMMAND said: ${last || 'nothing'})`)
}

type Stored = { local: Record<string, string>; session: Record<string, string>; cookie: string }

async function storage(page: Page): Promise<Stored> {
  return page.evaluate(() => ({
    local: { ...localStorage },
    session: { ...sessionStorage },
    cookie: document.cookie,
  }))
}

async function expectLoggedIn(page: Page, email: string): Promise<void> {
  await expectVisible(page.getByTestId('nav-logout'), 'the sidebar Logout entry')
  if (await page.getByTestId('nav-login').count()) fail('the sidebar still shows Login')
  const { local, session, cookie } = await storage(page)
  let user: { userEmail?: string; userToken?: string } | null
  try {
    user = JSON.parse(local['mm:user'] ?? 'null')
  } catch {
    fail('localStorage mm:user is not JSON')
  }
  if (user?.userEmail?.toLowerCase() !== email.toLowerCase()) fail(`mm:user holds ${JSON.stringify(user)}`)
  if (!user.userToken || !local['mm:token']) fail('the token is not stored (mm:user.userToken / mm:token)')
  const everything = JSON.stringify({ local, session, cookie })
  if (everything.includes(PASSWORD)) fail('the password is stored in the browser')
}

// ---------------------------------------------------------------------------
// Scenarios

let accountCreated = false

/** Sign-up through the login modal: email → mailed code → name and password. */
async function signUpThroughModal(walk: Walk): Promise<void> {
  const page = await walk.newPage()
  step(`open ${BASE_URL}/ as a guest`)
  await page.goto(`${BASE_URL}/`, { waitUntil: 'domcontentloaded' })
  await expectVisible(page.getByTestId('nav-login'), 'the sidebar Login entry')
  // Spec §6: Credit is for signed-in users only; the guest sees the balance on the generate page.
  if (await page.getByTestId('nav-credit').count()) fail('the sidebar shows Credit to a guest')

  step('Login opens the modal')
  await page.getByTestId('nav-login').first().click()
  const modal = page.getByTestId('login-modal')
  await expectVisible(modal, 'the login modal')
  const dialog = modal.getByRole('dialog', { name: 'Login/Sign up' })
  await expectVisible(dialog, 'a dialog titled "Login/Sign up"')
  await expectVisible(modal.getByText(/10 free credits/), 'the 10 free credits offer')
  if (!(await modal.getByTestId('login-remember').isChecked())) fail('"Remember me" is not ticked by default')
  await expectVisible(modal.getByTestId('forgot-password-link'), "'Forgot Password?'")

  step('Create an account → sign-up dialog')
  await modal.getByTestId('create-account-link').click()
  await expectVisible(modal.getByTestId('signup-flow'), 'the sign-up dialog')
  await modal.getByTestId('step-email-input').fill(EMAIL)
  await modal.getByTestId('step-email-submit').click()

  step(`code mailed to ${EMAIL}`)
  await expectVisible(modal.getByTestId('step-code'), 'the code step')
  const code = await mailedCode(EMAIL)
  console.log(`    code: ${code}`)
  await modal.getByTestId('step-code-input').fill(code)
  await modal.getByTestId('step-code-submit').click()

  step('name and password')
  await expectVisible(modal.getByTestId('step-password'), 'the name and password step')
  await modal.getByTestId('step-name-input').fill(NAME)
  await modal.getByTestId('step-password-input').fill(PASSWORD)
  await modal.getByTestId('step-password-submit').click()

  step('logged in: modal closed, Logout and the credit balance in the sidebar')
  await expectHidden(modal, 'the login modal')
  await expectLoggedIn(page, EMAIL)
  await expectVisible(page.getByTestId('nav-user-setting'), 'the sidebar User Setting entry')
  console.log(`    credits: ${await expectCreditBalance(page)}`)
  accountCreated = true
}

/** For the scenarios that need an account when the sign-up scenario did not make one. */
async function ensureAccount(walk: Walk): Promise<void> {
  if (accountCreated) return
  step('(no account yet) sign up on the /signup screen')
  const page = await walk.newPage()
  try {
    await page.goto(`${BASE_URL}/signup`, { waitUntil: 'domcontentloaded' })
    await expectVisible(page.getByTestId('signup-flow'), 'the sign-up screen')
    await page.getByTestId('step-email-input').fill(EMAIL)
    await page.getByTestId('step-email-submit').click()
    await expectVisible(page.getByTestId('step-code'), 'the code step')
    await page.getByTestId('step-code-input').fill(await mailedCode(EMAIL))
    await page.getByTestId('step-code-submit').click()
    await expectVisible(page.getByTestId('step-password'), 'the name and password step')
    await page.getByTestId('step-name-input').fill(NAME)
    await page.getByTestId('step-password-input').fill(PASSWORD)
    await page.getByTestId('step-password-submit').click()
    await expectLoggedIn(page, EMAIL)
    accountCreated = true
  } finally {
    await page.context().close()
  }
}

/** A wrong password: the server's message in a toast. */
async function wrongPassword(walk: Walk): Promise<void> {
  await ensureAccount(walk)
  const page = await walk.newPage()
  step('wrong password on /login')
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/auth/login', {
    timeout: STEP_TIMEOUT_MS,
  })
  await logIn(page, EMAIL, 'not-the-password-1')
  const res = await answer.catch(() => fail('no POST /api/v1/auth/login was made'))
  if (res.status() !== 400) fail(`login with a wrong password answered ${res.status()}, expected 400`)
  const message = (await res.json().catch(() => ({})))?.message
  console.log(`    server: ${res.status()} "${message}"`)

  step("the server's message is toasted")
  await expectToast(page, message || 'Please try again later.')
  if (await page.getByTestId('nav-logout').count()) fail('logged in with a wrong password')
  await expectUrl(page, '/login')
}

/** 'Please enter all the value' and 'Please enter correct email'. */
async function validationMessages(walk: Walk): Promise<void> {
  const page = await walk.newPage()
  step('empty form → "Please enter all the value"')
  await page.goto(`${BASE_URL}/login`, { waitUntil: 'domcontentloaded' })
  await expectVisible(page.getByTestId('login-form'), 'the login form')
  await page.getByTestId('login-email').fill('')
  await page.getByTestId('login-submit').click()
  await expectToast(page, 'Please enter all the value')

  step('password only → "Please enter all the value"')
  await page.getByTestId('login-password').fill(PASSWORD)
  await page.getByTestId('login-submit').click()
  await expectToast(page, 'Please enter all the value')

  step('bad email → inline "Please enter correct email"')
  let loginCalls = 0
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/v1/auth/login') loginCalls++
  })
  await page.getByTestId('login-email').fill('not an@email')
  await page.getByTestId('login-password').press('Enter')
  const inline = page.getByTestId('login-email-error')
  await expectVisible(inline, 'the inline email error')
  const text = (await inline.textContent())?.trim()
  if (text !== 'Please enter correct email') fail(`the inline error reads "${text}"`)
  if (loginCalls) fail('an invalid email was sent to the server')

  step('editing the email clears the inline error')
  await page.getByTestId('login-email').press('End')
  await page.getByTestId('login-email').press('Backspace')
  await expectHidden(inline, 'the inline email error')
}

/** Remember me pre-fills the email after logout (same context). */
async function rememberMe(walk: Walk): Promise<void> {
  await ensureAccount(walk)
  const page = await walk.newPage()
  const context = page.context()
  step('log in with "Remember me" ticked')
  await page.goto(`${BASE_URL}/login`, { waitUntil: 'domcontentloaded' })
  await expectVisible(page.getByTestId('login-form'), 'the login form')
  if ((await page.getByTestId('login-email').inputValue()) !== '') fail('the email is pre-filled in a fresh context')
  if (!(await page.getByTestId('login-remember').isChecked())) fail('"Remember me" is not ticked by default')
  await page.getByTestId('login-email').fill(EMAIL.toUpperCase())
  await page.getByTestId('login-password').fill(PASSWORD)
  await page.getByTestId('login-password').press('Enter')
  await expectUrl(page, '/')
  await expectLoggedIn(page, EMAIL)
  await expectCreditBalance(page)

  const cookies = await context.cookies()
  const remembered = cookies.find((c) => c.name === 'mm_remember_email')
  if (!remembered) fail(`no mm_remember_email cookie (cookies: ${cookies.map((c) => c.name).join(', ') || 'none'})`)
  if (cookies.some((c) => decodeURIComponent(c.value).includes(PASSWORD))) fail('a cookie holds the password')

  step('Logout → /login')
  await page.getByTestId('nav-logout').first().click()
  await expectUrl(page, '/login')
  await expectVisible(page.getByTestId('login-form'), 'the login form')
  const after = await storage(page)
  if (after.local['mm:user'] || after.local['mm:token']) fail('the session is still in localStorage after logout')
  if (!after.local['mm:fingerprint']) fail('logout removed the guest fingerprint (mm:fingerprint)')

  step('the email is pre-filled')
  const prefilled = await page.getByTestId('login-email').inputValue()
  if (prefilled.toLowerCase() !== EMAIL.toLowerCase()) fail(`the email field holds "${prefilled}"`)
  if ((await page.getByTestId('login-password').inputValue()) !== '') fail('the password is pre-filled')

  step('logging in with "Remember me" unticked forgets the email')
  await page.getByTestId('login-remember').uncheck()
  await page.getByTestId('login-password').fill(PASSWORD)
  await page.getByTestId('login-submit').click()
  await expectLoggedIn(page, EMAIL)
  if ((await context.cookies(BASE_URL)).some((c) => c.name === 'mm_remember_email')) {
    fail('mm_remember_email is still set after a login without "Remember me"')
  }
}

/** A 401 that the refresh cookie cannot fix: 'Unauthorised' and back to /login. */
async function unauthorisedLogsOut(walk: Walk): Promise<void> {
  await ensureAccount(walk)
  const page = await walk.newPage()
  const context = page.context()
  step('log in')
  await logIn(page, EMAIL, PASSWORD)
  await expectUrl(page, '/')
  await expectLoggedIn(page, EMAIL)

  step('garbage token, no cookies')
  await page.evaluate(() => {
    const user = JSON.parse(localStorage.getItem('mm:user') ?? 'null')
    localStorage.setItem('mm:user', JSON.stringify({ ...user, userToken: 'garbage' }))
    localStorage.setItem('mm:token', 'garbage')
  })
  await context.clearCookies()

  step('a call (User Setting) → "Unauthorised" and /login')
  await page.getByTestId('nav-user-setting').first().click()
  await expectToast(page, 'Unauthorised')
  await expectUrl(page, '/login')
  await expectVisible(page.getByTestId('login-form'), 'the login form')
  const after = await storage(page)
  if (after.local['mm:user'] || after.local['mm:token']) fail('the session is still in localStorage')
}

/** An expired access token is renewed with the HttpOnly refresh cookie, without a logout. */
async function refreshKeepsSession(walk: Walk): Promise<void> {
  await ensureAccount(walk)
  const page = await walk.newPage()
  const context = page.context()
  step('log in with "Remember me"')
  await logIn(page, EMAIL, PASSWORD)
  await expectUrl(page, '/')
  await expectLoggedIn(page, EMAIL)
  const cookies = await context.cookies()
  const readable = await page.evaluate(() => document.cookie)
  const httpOnly = cookies.filter((c) => c.httpOnly)
  if (!httpOnly.length) fail('login with rememberMe set no HttpOnly (refresh) cookie')
  if (httpOnly.some((c) => readable.includes(`${c.name}=`))) fail('the refresh cookie is readable by scripts')

  step('garbage access token, refresh cookie kept')
  await page.evaluate(() => {
    const user = JSON.parse(localStorage.getItem('mm:user') ?? 'null')
    localStorage.setItem('mm:user', JSON.stringify({ ...user, userToken: 'garbage' }))
    localStorage.setItem('mm:token', 'garbage')
  })
  const refreshed = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/auth/refresh', {
    timeout: STEP_TIMEOUT_MS,
  })
  await page.getByTestId('nav-user-setting').first().click()
  const res = await refreshed.catch(() => fail('no POST /api/v1/auth/refresh was made'))
  if (!res.ok()) fail(`POST /api/v1/auth/refresh answered ${res.status()}`)

  step('still logged in with a new token')
  await expectUrl(page, '/user-setting')
  await expectVisible(page.getByTestId('settings-credit'), 'the Credit entry on User Setting')
  await expectLoggedIn(page, EMAIL)
  const token = await page.evaluate(() => localStorage.getItem('mm:token'))
  if (token === 'garbage') fail('the refreshed token was not stored')
  if (await page.getByTestId('toast').filter({ hasText: 'Unauthorised' }).count()) fail('"Unauthorised" was shown')
}

const SCENARIOS: [string, (walk: Walk) => Promise<void>][] = [
  ['sign-up through the modal', signUpThroughModal],
  ['wrong password shows the server message', wrongPassword],
  ['validation messages', validationMessages],
  ['remember me pre-fills the email', rememberMe],
  ['a 401 forces logout', unauthorisedLogsOut],
  ['an expired token is refreshed with the cookie', refreshKeepsSession],
]

test.beforeAll(() => {
  console.log(`accounts e2e against ${BASE_URL} as ${EMAIL}`)
})

for (const [name, scenario] of SCENARIOS) {
  test(name, ({ walk }) => scenario(walk))
}
